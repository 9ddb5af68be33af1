import TerminalKit
import Testing

@Suite struct ConsoleTests {
    /// A console of `style` and the lines it writes.
    func console(style: Console.Style) -> (Console, Locked<[String]>) {
        let lines = Locked([String]())
        return (Console(style: style) { line in lines.withLock { $0.append(line) } }, lines)
    }

    @Test func colorsOnlyATerminalWithoutNoColor() {
        #expect(Console.Style.forOutput(isTerminal: true, environment: [:]) == .colored)
        #expect(Console.Style.forOutput(isTerminal: true, environment: ["NO_COLOR": "1"]) == .plain)
        #expect(Console.Style.forOutput(isTerminal: false, environment: [:]) == .plain)
        #expect(Console.Style.forOutput(isTerminal: true, environment: ["NO_COLOR": ""]) == .colored)
    }

    @Test func coloredConsolePaintsEachLineInItsStyle() {
        let (console, lines) = console(style: .colored)

        console.line("joined", style: .orange)
        console.line("arrived", style: .green)
        console.line("bye")

        #expect(
            lines.withLock { $0 } == [
                "\u{1B}[38;5;208mjoined\u{1B}[0m",
                "\u{1B}[32marrived\u{1B}[0m",
                "bye",
            ])
    }

    @Test func plainConsoleWritesNoEscapeCodes() {
        let (console, lines) = console(style: .plain)

        console.line("joined", style: .orange)
        console.line("wrong", style: .red)
        console.line("bye")

        #expect(lines.withLock { $0 } == ["joined", "wrong", "bye"])
    }

    @Test func styleSinkGetsEachLineUndecoratedWithItsStyle() {
        let lines = Locked([String]())
        let console = Console { text, style in lines.withLock { $0.append("\(style): \(text)") } }

        console.line("joined", style: .orange)
        console.line("wrong", style: .red)
        console.line("bye")

        #expect(lines.withLock { $0 } == ["orange: joined", "red: wrong", "plain: bye"])
    }

    @Test func callsToTheSinkNeverOverlapWhenManyThreadsWrite() async {
        // The sink appends without a lock of its own, as the console allows; overlapping calls would lose lines,
        // and the thread sanitizer, which CI runs the tests under, would report them.
        final class Unlocked: @unchecked Sendable {
            var lines: [String] = []
        }
        let written = Unlocked()
        let console = Console(style: .colored) { written.lines.append($0) }

        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for number in 0..<250 { console.line("\(thread).\(number)", style: .green) }
                }
            }
        }

        var expected: Set<String> = []
        for thread in 0..<4 {
            for number in 0..<250 { expected.insert("\u{1B}[32m\(thread).\(number)\u{1B}[0m") }
        }
        #expect(written.lines.count == 1000)
        #expect(Set(written.lines) == expected)
    }
}
