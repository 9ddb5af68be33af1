import TerminalKit
import Testing

@Suite struct StyledLineTests {
    @Test func aLineEscapesWhatItIsGivenAndCountsTheColumnsOfTheEscapedText() {
        var line = StyledLine("a\u{1B}[2Jb", style: .bold)
        line.append("日\u{7}")

        #expect(line.text == #"a\u{1B}[2Jb日\u{7}"#)
        #expect(line.width == 11 + 2 + 5)
        #expect(line.runs.map(\.style) == [.bold, .plain])
    }

    @Test func fittingPadsOrCutsToExactlyTheColumns() {
        #expect(StyledLine("abc").fitted(to: 5).text == "abc  ")
        #expect(StyledLine("abcdef").fitted(to: 5).text == "abcd…")
        #expect(StyledLine("日日日").fitted(to: 4).text == "日… ")  // the second 日 would straddle the edge
        #expect(StyledLine("e\u{301}e\u{301}e\u{301}e\u{301}").fitted(to: 3).text == "e\u{301}e\u{301}…")
        #expect(StyledLine("abc").fitted(to: 0).text == "")
    }

    @Test func fittingKeepsTheStylesOfTheRunsItKeeps() {
        var line = StyledLine("chats", style: .bold)
        line.append(" (12)", style: .badge)

        let fitted = line.fitted(to: 8)

        #expect(fitted.runs.map(\.text) == ["chats", " (…"])
        #expect(fitted.runs.map(\.style) == [.bold, .badge])
        #expect(fitted.encoded(colored: true) == "\u{1B}[1mchats\u{1B}[0m\u{1B}[1;32m (…\u{1B}[0m")
        #expect(fitted.encoded(colored: false) == "chats (…")
    }
}
