import Dispatch
import Testing

@testable import ChatDemoKit

@Suite struct ConsoleTests {
    @Test func colorsOnlyATerminalWithoutNoColor() {
        #expect(Console.Style.forOutput(isTerminal: true, environment: [:]) == .colored)
        #expect(Console.Style.forOutput(isTerminal: true, environment: ["NO_COLOR": "1"]) == .plain)
        #expect(Console.Style.forOutput(isTerminal: false, environment: [:]) == .plain)
        #expect(Console.Style.forOutput(isTerminal: true, environment: ["NO_COLOR": ""]) == .colored)
    }

    @Test func coloredConsolePaintsSubscribedOrangeAndReceivedGreen() {
        let transcript = Transcript()
        let console = transcript.console(style: .colored)

        console.subscribed("chats#1 has been subscribed")
        console.received("chats#1 received \"hi\"")
        console.line("bye")

        #expect(
            transcript.lines == [
                "\u{1B}[38;5;208mchats#1 has been subscribed\u{1B}[0m",
                "\u{1B}[32mchats#1 received \"hi\"\u{1B}[0m",
                "bye",
            ])
    }

    @Test func plainConsoleWritesNoEscapeCodes() {
        let transcript = Transcript()
        let console = transcript.console(style: .plain)

        console.subscribed("chats#1 has been subscribed")
        console.received("chats#1 received \"hi\"")
        console.error("no screen")

        #expect(transcript.lines == ["chats#1 has been subscribed", "chats#1 received \"hi\"", "error: no screen"])
    }

    @Test func toneSinkGetsEachLineUndecoratedWithWhatItIsAbout() {
        let lines = Locked([String]())
        let console = Console { text, tone in lines.withLock { $0.append("\(tone): \(text)") } }

        console.subscribed("chats#1 has been subscribed")
        console.received("chats#1 received \"hi\"")
        console.error("no screen")
        console.echo("hi")
        console.line("bye")

        #expect(
            lines.withLock { $0 } == [
                "subscribed: chats#1 has been subscribed",
                "received: chats#1 received \"hi\"",
                "error: error: no screen",
                "plain: > hi",
                "plain: bye",
            ])
    }
}
