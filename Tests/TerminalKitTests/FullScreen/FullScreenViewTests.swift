import TerminalKit
import Testing

@Suite struct FullScreenViewTests {
    @Test func whatIsWrittenToItsConsoleIsTheStatusUntilTheNextLineIsSubmitted() {
        let view = FullScreenView(placeholder: "nothing to show")
        let console = view.console()
        console.line("joined", style: .orange)
        console.line("hello")
        #expect(view.statusLines == [StatusLine("joined", style: .orange), StatusLine("hello")])

        for character in "/bogus" {
            #expect(view.type(.text(String(character))) == .editing)
        }
        #expect(view.inputText == "/bogus")
        #expect(view.type(.enter) == .submitted("/bogus"))
        #expect(view.inputText == "")
        #expect(view.statusLines.isEmpty)

        console.line("error: unknown", style: .red)
        #expect(view.statusLines == [StatusLine("error: unknown", style: .red)])
    }

    @Test func editingTheLineKeepsTheStatus() {
        let view = FullScreenView(placeholder: "nothing to show")
        view.console().line("said")

        _ = view.type(.text("draft"))
        _ = view.type(.backspace)
        #expect(view.type(.endOfInput) == .editing)  // on a line with text, Control-D does nothing

        #expect(view.inputText == "draf")
        #expect(view.statusLines == [StatusLine("said")])
    }

    @Test func theFrameShowsThePanesTheStatusAndTheInput() {
        let view = FullScreenView(placeholder: "nothing to show")
        view.console().line("said")
        _ = view.type(.text("next"))

        let frame = view.frame(
            panes: [TextPane(title: "one", body: ["first"]), TextPane(title: "two", footer: "1 line")],
            size: TerminalSize(rows: 6, columns: 60))

        // Panes 4 lines high, the status line, the input line.
        #expect(frame.text[0] == "┌ one " + rule(23) + "┐" + "┌ two " + rule(23) + "┐")
        #expect(frame.text[1] == "│ first" + spaces(21) + " │" + "│" + spaces(28) + "│")
        #expect(frame.text[2] == "│" + spaces(28) + "│" + "│ 1 line" + spaces(20) + " │")
        #expect(frame.text[4] == "said" + spaces(56))
        #expect(frame.text[5] == "> next" + spaces(54))
        #expect((frame.cursorRow, frame.cursorColumn) == (5, 6))
    }

    @Test func withNoPaneTheFrameShowsThePlaceholder() {
        let view = FullScreenView(placeholder: "nothing to show: /open one")

        let frame = view.frame(panes: [TextPane](), size: TerminalSize(rows: 4, columns: 30))

        #expect(frame.text[0] == "nothing to show: /open one" + spaces(4))
    }
}
