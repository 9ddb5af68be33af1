import TerminalKit
import Testing

/// The full-screen view's layout, checked line by line against frames counted by hand: each expected line
/// spells out its padding, so a miscounted column shows as a wrong line.
@Suite struct LayoutTests {
    /// Three panes: two lines, one line, none.
    let threePanes = [
        TextPane(title: "one", body: ["first", "second"], footer: "2 lines"),
        TextPane(title: "two", body: ["x"], footer: "1 line"),
        TextPane(title: "three", footer: "0 lines"),
    ]

    func layout(
        _ panes: [some Pane], placeholder: String = "nothing to show", status: [StatusLine] = [], input: String = "",
        rows: Int, columns: Int
    ) -> Frame {
        Layout.frame(
            panes: panes, placeholder: placeholder, status: status, input: input,
            size: TerminalSize(rows: rows, columns: columns))
    }

    @Test func panesSideBySideShareTheWidthAt72x12() {
        let frame = layout(threePanes, status: [StatusLine("ok")], rows: 12, columns: 72)

        // One row of three 24-column panes, 10 lines high: 7 lines of body and a footer inside; then the status
        // line and the input line.
        #expect(frame.lines.count == 12)
        #expect(frame.text.allSatisfy { $0.count == 72 })
        let blank = "│" + spaces(22) + "│"
        #expect(frame.text[0] == "┌ one " + rule(17) + "┐" + "┌ two " + rule(17) + "┐" + "┌ three " + rule(15) + "┐")
        #expect(frame.text[1] == "│ first" + spaces(15) + " │" + "│ x" + spaces(19) + " │" + blank)
        #expect(frame.text[2] == "│ second" + spaces(14) + " │" + blank + blank)
        #expect(frame.text[3...7].allSatisfy { $0 == blank + blank + blank })
        #expect(
            frame.text[8]
                == "│ 2 lines" + spaces(13) + " │" + "│ 1 line" + spaces(14) + " │" + "│ 0 lines" + spaces(13) + " │")
        #expect(frame.text[9] == String(repeating: "└" + rule(22) + "┘", count: 3))
        #expect(frame.text[10] == "ok" + spaces(70))
        #expect(frame.text[11] == "> " + spaces(70))
        #expect((frame.cursorRow, frame.cursorColumn) == (11, 2))
    }

    @Test func narrowTerminalWrapsPanesToRowsAt60x40() {
        let frame = layout(threePanes, status: [StatusLine("ok")], input: "hi", rows: 40, columns: 60)

        // Two 30-column panes in a first row, the third alone and 60 columns wide in a second; 19 lines each.
        #expect(frame.lines.count == 40)
        #expect(frame.text.allSatisfy { $0.count == 60 })
        #expect(frame.text[0] == "┌ one " + rule(23) + "┐" + "┌ two " + rule(23) + "┐")
        #expect(frame.text[1] == "│ first" + spaces(21) + " │" + "│ x" + spaces(25) + " │")
        #expect(frame.text[17] == "│ 2 lines" + spaces(19) + " │" + "│ 1 line" + spaces(20) + " │")
        #expect(frame.text[18] == String(repeating: "└" + rule(28) + "┘", count: 2))
        #expect(frame.text[19] == "┌ three " + rule(51) + "┐")
        #expect(frame.text[20] == "│" + spaces(58) + "│")
        #expect(frame.text[36] == "│ 0 lines" + spaces(49) + " │")
        #expect(frame.text[37] == "└" + rule(58) + "┘")
        #expect(frame.text[38] == "ok" + spaces(58))
        #expect(frame.text[39] == "> hi" + spaces(56))
        #expect((frame.cursorRow, frame.cursorColumn) == (39, 4))
    }

    @Test func aPaneIsAskedForTheColumnsAndRowsInsideIt() {
        // 30 columns less two borders and two margins; 5 rows of panes less two borders and the footer.
        let frame = layout([SizePane()], rows: 7, columns: 30)

        #expect(frame.text[1] == "│ 26 x 2" + spaces(20) + " │")
    }

    @Test func linesBeyondThePaneAreLeftOutAndTheFooterStays() {
        let pane = TextPane(title: "long", body: (1...10).map { "line \($0)" }, footer: "10 lines")
        let frame = layout([pane], rows: 7, columns: 30)

        #expect(frame.text[0] == "┌ long " + rule(22) + "┐")
        #expect(frame.text[1] == "│ line 1" + spaces(20) + " │")
        #expect(frame.text[2] == "│ line 2" + spaces(20) + " │")
        #expect(frame.text[3] == "│ 10 lines" + spaces(18) + " │")
        #expect(frame.text[4] == "└" + rule(28) + "┘")
    }

    @Test func titlesLinesAndTheInputLineAreCutToFit() {
        let pane = TextPane(title: "a long title", body: ["no lines here yet"])
        let input = String(repeating: "a", count: 30) + String(repeating: "b", count: 30)
        let frame = layout([pane], input: input, rows: 8, columns: 15)

        #expect(frame.text[0] == "┌ a long titl…┐")
        #expect(frame.text[1] == "│ no lines h… │")  // 11 columns inside
        // The end of the input shows, after an ellipsis, with the cursor in the last column.
        #expect(frame.text[7] == "> …" + String(repeating: "b", count: 11) + " ")
        #expect((frame.cursorRow, frame.cursorColumn) == (7, 14))
    }

    @Test func wideAndCombiningCharactersKeepThePanesAligned() {
        // 日本語 takes 6 columns; é written as e and a combining acute takes 1; the flag and the family, 2 each.
        let text = "日本語 café e\u{301} 🇯🇵 👨‍👩‍👧"  // 6 + 1 + 4 + 1 + 1 + 1 + 2 + 1 + 2 = 19 columns
        let panes = [TextPane(title: "left", body: [text]), TextPane(title: "right", body: ["", text])]
        let frame = layout(panes, input: text, rows: 8, columns: 60)

        // Two 30-column panes, 26 columns inside each.
        #expect(frame.text[1] == "│ " + text + spaces(7) + " │" + "│" + spaces(28) + "│")  // 19 + 7 = 26
        #expect(frame.text[2] == "│" + spaces(28) + "│" + "│ " + text + spaces(7) + " │")
        #expect(frame.text[7] == "> " + text + spaces(39))  // 2 + 19 + 39 = 60
        #expect((frame.cursorRow, frame.cursorColumn) == (7, 21))
    }

    @Test func wideCharacterAtTheEdgeLeavesASpaceInstead() {
        let frame = layout([TextPane(title: "wide", body: [String(repeating: "日", count: 20)])], rows: 8, columns: 30)

        // 26 columns inside: twelve 日 (24 columns), the ellipsis, and a space where the thirteenth does not fit.
        #expect(frame.text[1] == "│ " + String(repeating: "日", count: 12) + "…  │")
    }

    @Test func controlCharactersAndEscapeSequencesAreShownEscaped() {
        let message = "\u{1B}[2J\u{7}ring\r\n\u{9B}31m\u{202E}abc"
        let frame = layout(
            [TextPane(title: "log", body: [message])], status: [StatusLine("said \"\(message)\"", style: .red)],
            rows: 6, columns: 80)

        let shown = #"\u{1B}[2J\u{7}ring\u{D}\u{A}\u{9B}31m\u{202E}abc"#  // 48 columns
        #expect(frame.text[1] == "│ " + shown + spaces(28) + " │")
        #expect(frame.text[4] == "said \"" + shown + "\"" + spaces(25))
    }

    @Test(arguments: [false, true])
    func escapeSequencesInWhatIsShownNeverReachTheTerminal(colored: Bool) {
        let message = "\u{1B}[2J\u{1B}]0;title\u{7}\u{9B}31m\u{202E}\u{2028}"
        let panes = (1...3).map { _ in TextPane(title: message, body: [message, message], footer: message) }
        let frame = layout(
            panes, status: [StatusLine(message, style: .red)], input: message, rows: 12, columns: 120)
        var encoder = FrameEncoder(colored: colored)
        let sent = encoder.update(to: frame)

        // Escapes come only from the encoder: hide, clear, move and erase per line, move and show the cursor;
        // and with colors, a style and a reset around each styled run.
        let styledRuns = frame.lines.flatMap(\.runs).filter { $0.style != .plain }.count
        let expectedEscapes = 4 + 2 * 12 + (colored ? 2 * styledRuns : 0)
        #expect(sent.unicodeScalars.filter { $0 == "\u{1B}" }.count == expectedEscapes)
        let steering = sent.unicodeScalars.filter {
            $0 != "\u{1B}"
                && ($0.properties.generalCategory == .control || $0.properties.isBidiControl || $0 == "\u{2028}")
        }
        #expect(steering.isEmpty)
    }

    @Test func panesThatDoNotFitAreCountedOnALine() {
        let panes = (1...10).map { TextPane(title: "pane#\($0)") }
        let frame = layout(panes, rows: 12, columns: 60)

        // Ten rows for panes, one of them for the note: two rows of two panes, 5 and 4 lines high.
        #expect(frame.text[0] == "┌ pane#1 " + rule(20) + "┐" + "┌ pane#2 " + rule(20) + "┐")
        #expect(frame.text[5] == "┌ pane#3 " + rule(20) + "┐" + "┌ pane#4 " + rule(20) + "┐")
        #expect(frame.text[8] == String(repeating: "└" + rule(28) + "┘", count: 2))
        #expect(frame.text[9] == "6 more panes do not fit: a larger terminal shows them" + spaces(7))
        #expect(frame.text[0..<9].allSatisfy { !$0.contains("pane#5") })
    }

    @Test func onePaneThatDoesNotFitIsCountedAlone() {
        let panes = (1...5).map { TextPane(title: "pane#\($0)") }
        let frame = layout(panes, rows: 12, columns: 60)

        #expect(frame.text[9] == "1 more pane does not fit: a larger terminal shows them" + spaces(6))
    }

    @Test func noPaneShowsThePlaceholder() {
        let frame = layout([TextPane](), placeholder: "nothing to show: /open one", rows: 6, columns: 40)

        #expect(frame.text[0] == "nothing to show: /open one" + spaces(14))
        #expect(frame.text[1...4].allSatisfy { $0 == spaces(40) })
    }

    @Test func statusThatDoesNotFitSaysHowMuchIsLeftOut() {
        let status = (1...20).map { StatusLine("line \($0)") }
        let frame = layout([TextPane](), status: status, rows: 40, columns: 60)

        // A third of the rows above the input line: 13 status lines, 12 of the 20 and the note for the other 8.
        #expect(frame.text[0] == "nothing to show" + spaces(45))
        #expect(frame.text[26] == "line 1" + spaces(54))
        #expect(frame.text[37] == "line 12" + spaces(53))
        #expect(frame.text[38] == "+8 more lines: a taller terminal shows them" + spaces(17))
    }

    @Test func everySizeGivesAFrameOfExactlyThatSize() {
        for rows in 0...9 {
            for columns in 0...30 {
                let frame = layout(
                    threePanes, status: [StatusLine("ok")], input: "typed", rows: rows, columns: columns)
                let expectedRows = columns == 0 ? 0 : rows
                #expect(frame.lines.count == expectedRows, "\(rows)x\(columns)")
                #expect(frame.text.allSatisfy { $0.count == columns }, "\(rows)x\(columns)")
                if expectedRows > 0 {
                    #expect(frame.cursorRow == rows - 1 && (0..<columns).contains(frame.cursorColumn))
                }
            }
        }
    }
}
