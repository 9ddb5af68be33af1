import TerminalKit
import Testing

@testable import Chat

/// The screens' panes as the full-screen view lays them out, checked line by line against frames counted by
/// hand: each expected line spells out its padding, so a miscounted column shows as a wrong line.
@Suite struct ScreenSnapshotPaneTests {
    /// A chat list with two conversations, the conversation and the banner on alice's message.
    let threeScreens = [
        ScreenSnapshot(
            name: "chats#1", received: 2,
            content: .chats([
                .init(name: "alice", unread: 1, latest: "hi"), .init(name: "general", unread: 1, latest: "hello"),
            ])),
        ScreenSnapshot(name: "conversation#1", received: 2, content: .conversation("alice", bubbles: ["hi"])),
        ScreenSnapshot(name: "banner#1", received: 2, content: .banner("[alice] hi")),
    ]

    /// The frame of `screens` as the full-screen view draws it, with the chat's placeholder.
    func layout(screens: [ScreenSnapshot], status: [StatusLine], input: String, size: TerminalSize) -> Frame {
        Layout.frame(panes: screens, placeholder: ScreenSnapshot.placeholder, status: status, input: input, size: size)
    }

    @Test func threePanesSideBySideAt120x40() {
        let frame = layout(
            screens: threeScreens, status: [StatusLine("ok")], input: "", size: TerminalSize(rows: 40, columns: 120))

        // One row of three 40-column panes, 38 lines high; then the status line and the input line.
        #expect(frame.lines.count == 40)
        #expect(frame.text.allSatisfy { $0.count == 120 })  // every character here is one column wide
        let blank = "│" + spaces(38) + "│"
        #expect(
            frame.text[0]
                == "┌ chats#1 " + rule(29) + "┐" + "┌ conversation#1 " + rule(22) + "┐" + "┌ banner#1 " + rule(28) + "┐"
        )
        #expect(
            frame.text[1] == "│ alice" + spaces(28) + "(1) │" + "│ #alice" + spaces(30) + " │" + "│  [alice] hi "
                + spaces(24) + " │")
        #expect(frame.text[2] == "│   hi" + spaces(32) + " │" + blank + blank)
        #expect(frame.text[3] == "│ general" + spaces(26) + "(1) │" + blank + blank)
        #expect(frame.text[4] == "│   hello" + spaces(29) + " │" + blank + blank)
        #expect(frame.text[5] == blank + blank + blank)
        #expect(frame.text[35] == blank + "│ › hi" + spaces(32) + " │" + blank)
        #expect(
            frame.text[36]
                == "│ 2 unread · 2 received" + spaces(15) + " │" + "│ 2 received" + spaces(26) + " │" + "│ 2 received"
                + spaces(26) + " │")
        #expect(frame.text[37] == String(repeating: "└" + rule(38) + "┘", count: 3))
        #expect(frame.text[38] == "ok" + spaces(118))
        #expect(frame.text[39] == "> " + spaces(118))
        #expect((frame.cursorRow, frame.cursorColumn) == (39, 2))
    }

    @Test func narrowTerminalWrapsPanesToRowsAt60x40() {
        let frame = layout(
            screens: threeScreens, status: [StatusLine("ok")], input: "hi", size: TerminalSize(rows: 40, columns: 60))

        // Two 30-column panes in a first row, the banner alone and 60 columns wide in a second; 19 lines each.
        #expect(frame.lines.count == 40)
        #expect(frame.text.allSatisfy { $0.count == 60 })
        #expect(frame.text[0] == "┌ chats#1 " + rule(19) + "┐" + "┌ conversation#1 " + rule(12) + "┐")
        #expect(frame.text[1] == "│ alice" + spaces(18) + "(1) │" + "│ #alice" + spaces(20) + " │")
        #expect(frame.text[17] == "│ 2 unread · 2 received" + spaces(5) + " │" + "│ 2 received" + spaces(16) + " │")
        #expect(frame.text[18] == String(repeating: "└" + rule(28) + "┘", count: 2))
        #expect(frame.text[19] == "┌ banner#1 " + rule(48) + "┐")
        #expect(frame.text[20] == "│  [alice] hi " + spaces(44) + " │")
        #expect(frame.text[36] == "│ 2 received" + spaces(46) + " │")
        #expect(frame.text[37] == "└" + rule(58) + "┘")
        #expect(frame.text[38] == "ok" + spaces(58))
        #expect(frame.text[39] == "> hi" + spaces(56))
        #expect((frame.cursorRow, frame.cursorColumn) == (39, 4))
    }

    @Test func textTooLongIsCutWithAnEllipsis() {
        let long = String(repeating: "x", count: 50)
        let screens = [
            ScreenSnapshot(
                name: "chats#1", received: 1, content: .chats([.init(name: "general", unread: 1, latest: long)])),
            ScreenSnapshot(name: "banner#1", received: 1, content: .banner("[general] " + long)),
        ]
        let frame = layout(screens: screens, status: [], input: "", size: TerminalSize(rows: 10, columns: 80))

        // Two 40-column panes: 36 columns inside each.
        #expect(frame.text[2].hasPrefix("│   " + String(repeating: "x", count: 33) + "… │"))
        #expect(frame.text[1].hasSuffix("│  [general] " + String(repeating: "x", count: 24) + "… │"))
    }

    @Test func titlesAndTheInputLineAreCutToFit() {
        let screens = [ScreenSnapshot(name: "conversation#1", received: 0, content: .conversation(nil, bubbles: []))]
        let input = String(repeating: "a", count: 30) + String(repeating: "b", count: 30)
        let frame = layout(screens: screens, status: [], input: input, size: TerminalSize(rows: 8, columns: 15))

        #expect(frame.text[0] == "┌ conversatio…┐")
        #expect(frame.text[1] == "│ no message… │")  // 11 columns inside
        // The end of the input shows, after an ellipsis, with the cursor in the last column.
        #expect(frame.text[7] == "> …" + String(repeating: "b", count: 11) + " ")
        #expect((frame.cursorRow, frame.cursorColumn) == (7, 14))
    }

    @Test func closedScreenHasNoPaneAndTheOthersShareTheWidth() {
        let transcript = Transcript()
        let session = ChatSession(console: transcript.console())
        for line in ["/open chats", "/open conversation", "/open banner", "hi", "/close banner"] {
            session.handle(line)
        }

        let screens = session.screenStates.snapshot()
        #expect(screens.map(\.name) == ["chats#1", "conversation#1"])
        let frame = layout(
            screens: screens, status: [StatusLine("banner#1 left (released; no remove call)")], input: "",
            size: TerminalSize(rows: 40, columns: 120))

        #expect(frame.text[0] == "┌ chats#1 " + rule(49) + "┐" + "┌ conversation#1 " + rule(42) + "┐")
        #expect(frame.text[37] == String(repeating: "└" + rule(58) + "┘", count: 2))
        #expect(frame.text[0..<38].allSatisfy { !$0.contains("banner") })
        #expect(frame.text[38].hasPrefix("banner#1 left (released; no remove call)"))
    }

    @Test func wideAndCombiningCharactersKeepThePanesAligned() {
        // 日本語 takes 6 columns; é written as e and a combining acute takes 1; the flag and the family, 2 each.
        let text = "日本語 café e\u{301} 🇯🇵 👨‍👩‍👧"  // 6 + 1 + 4 + 1 + 1 + 1 + 2 + 1 + 2 = 19 columns
        let screens = [
            ScreenSnapshot(
                name: "chats#1", received: 1, content: .chats([.init(name: "general", unread: 1, latest: text)])),
            ScreenSnapshot(name: "conversation#1", received: 1, content: .conversation("general", bubbles: [text])),
            ScreenSnapshot(name: "banner#1", received: 1, content: .banner("[general] " + text)),
        ]
        let frame = layout(screens: screens, status: [], input: text, size: TerminalSize(rows: 10, columns: 120))

        #expect(frame.text[1].hasSuffix("│  [general] " + text + " " + spaces(5) + " │"))  // 11 + 19 + 1 + 5 = 36
        #expect(frame.text[2].hasPrefix("│   " + text + spaces(15) + " │"))  // 2 + 19 + 15 = 36
        // Panes 8 lines high: the bubble on the last line above the counters.
        #expect(frame.text[5] == "│" + spaces(38) + "│" + "│ › " + text + spaces(15) + " │" + "│" + spaces(38) + "│")
        #expect(frame.text[9] == "> " + text + spaces(99))  // 2 + 19 + 99 = 120
        #expect((frame.cursorRow, frame.cursorColumn) == (9, 21))
    }

    @Test func wideCharacterAtTheEdgeLeavesASpaceInstead() {
        let text = String(repeating: "日", count: 20)
        let screens = [
            ScreenSnapshot(
                name: "chats#1", received: 1, content: .chats([.init(name: "general", unread: 1, latest: text)]))
        ]
        let frame = layout(screens: screens, status: [], input: "", size: TerminalSize(rows: 8, columns: 30))

        // 26 columns inside: two spaces, eleven 日 (22 columns), the ellipsis, and a space where the twelfth does
        // not fit.
        #expect(frame.text[2] == "│   " + String(repeating: "日", count: 11) + "…  │")
    }

    @Test func controlCharactersAndEscapeSequencesAreShownEscaped() {
        let message = "\u{1B}[2J\u{7}ring\r\n\u{9B}31m\u{202E}abc"
        let screens = [ScreenSnapshot(name: "banner#1", received: 1, content: .banner(message))]
        let frame = layout(
            screens: screens, status: [StatusLine("banner#1 received \"\(message)\"", style: .green)],
            input: "", size: TerminalSize(rows: 6, columns: 80))

        let shown = #"\u{1B}[2J\u{7}ring\u{D}\u{A}\u{9B}31m\u{202E}abc"#  // 48 columns
        #expect(frame.text[1] == "│  " + shown + " " + spaces(26) + " │")
        #expect(frame.text[4] == "banner#1 received \"" + shown + "\"" + spaces(12))
    }

    @Test(arguments: [false, true])
    func escapeSequencesInMessagesNeverReachTheTerminal(colored: Bool) {
        let message = "\u{1B}[2J\u{1B}]0;title\u{7}\u{9B}31m\u{202E}\u{2028}"
        let screens = [
            ScreenSnapshot(
                name: "chats#1", received: 1, content: .chats([.init(name: "\u{1B}[31m", unread: 1, latest: message)])),
            ScreenSnapshot(name: "conversation#1", received: 1, content: .conversation("x", bubbles: [message])),
            ScreenSnapshot(name: "banner#1", received: 1, content: .banner(message)),
        ]
        let frame = layout(
            screens: screens, status: [StatusLine(message, style: .red)], input: message,
            size: TerminalSize(rows: 12, columns: 120))
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

    @Test func screensThatDoNotFitAreCountedOnALine() {
        let screens = (1...10).map {
            ScreenSnapshot(name: "banner#\($0)", received: 0, content: .banner(nil))
        }
        let frame = layout(screens: screens, status: [], input: "", size: TerminalSize(rows: 12, columns: 60))

        // Ten rows for panes, one of them for the note: two rows of two panes, 5 and 4 lines high.
        #expect(frame.text[0] == "┌ banner#1 " + rule(18) + "┐" + "┌ banner#2 " + rule(18) + "┐")
        #expect(frame.text[5] == "┌ banner#3 " + rule(18) + "┐" + "┌ banner#4 " + rule(18) + "┐")
        #expect(frame.text[8] == String(repeating: "└" + rule(28) + "┘", count: 2))
        #expect(frame.text[9] == "6 more panes do not fit: a larger terminal shows them" + spaces(7))
        #expect(frame.text[0..<9].allSatisfy { !$0.contains("banner#5") })
    }

    @Test(arguments: ScreenKind.allCases)
    func placeholderNamesEveryKindOfScreen(kind: ScreenKind) {
        #expect(ScreenSnapshot.placeholder.contains(" \(kind.rawValue)"))
    }

    @Test func statusThatDoesNotFitSaysHowMuchIsLeftOut() {
        let status = (1...20).map { StatusLine("line \($0)") }
        let frame = layout(screens: [], status: status, input: "", size: TerminalSize(rows: 40, columns: 60))

        // A third of the rows above the input line: 13 status lines, 12 of the 20 and the note for the other 8.
        #expect(frame.text[0].hasPrefix("no screen is open"))
        #expect(frame.text[26] == "line 1" + spaces(54))
        #expect(frame.text[37] == "line 12" + spaces(53))
        #expect(frame.text[38] == "+8 more lines: a taller terminal shows them" + spaces(17))
    }

    @Test func everySizeGivesAFrameOfExactlyThatSize() {
        for rows in 0...9 {
            for columns in 0...30 {
                let size = TerminalSize(rows: rows, columns: columns)
                let frame = layout(screens: threeScreens, status: [StatusLine("ok")], input: "typed", size: size)
                let expectedRows = columns == 0 ? 0 : rows
                #expect(frame.lines.count == expectedRows, "\(rows)x\(columns)")
                #expect(frame.text.allSatisfy { $0.count == columns }, "\(rows)x\(columns)")
                if expectedRows > 0 {
                    #expect(frame.cursorRow == rows - 1 && (0..<columns).contains(frame.cursorColumn))
                }
            }
        }
    }

    func spaces(_ count: Int) -> String {
        String(repeating: " ", count: count)
    }

    func rule(_ count: Int) -> String {
        String(repeating: "─", count: count)
    }
}
