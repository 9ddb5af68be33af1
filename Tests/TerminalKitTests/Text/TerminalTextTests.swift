import TerminalKit
import Testing

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("hello", 5),
        ("日本語", 6),  // CJK ideographs: wide
        ("한국어", 6),  // Hangul syllables: wide
        ("ｱｲｳ", 3),  // halfwidth katakana: narrow
        ("ＡＢ", 4),  // fullwidth Latin: wide
        ("e\u{301}", 1),  // e and a combining acute
        ("\u{1100}\u{1161}", 2),  // a leading and a medial Hangul jamo: one syllable block
        ("a\u{200B}b", 2),  // zero-width space
        ("😀", 2),  // emoji presentation: wide
        ("❤\u{FE0F}", 1),  // text-presentation heart, as terminals and tmux draw it
        ("🇯🇵", 2),  // two regional indicators: one flag
        ("👨\u{200D}👩\u{200D}👧", 2),  // joined by zero-width joiners: one emoji
        ("─│┌…", 4),  // ambiguous width: narrow
    ])
    func widthCountsColumnsAsATerminalDraws(text: String, columns: Int) {
        #expect(TerminalText.width(of: text) == columns)
    }

    @Test func controlCharactersAreEscapedInSwiftSpelling() {
        #expect(TerminalText.escaped("a\u{1B}[31mb") == #"a\u{1B}[31mb"#)
        #expect(TerminalText.escaped("tab\there") == #"tab\u{9}here"#)
        #expect(TerminalText.escaped("cr\r\nlf") == #"cr\u{D}\u{A}lf"#)
        #expect(TerminalText.escaped("\u{0}\u{7F}\u{85}\u{9B}") == #"\u{0}\u{7F}\u{85}\u{9B}"#)
        #expect(TerminalText.escaped("line\u{2028}para\u{2029}") == #"line\u{2028}para\u{2029}"#)
        #expect(TerminalText.escaped("\u{202E}olleh\u{2066}") == #"\u{202E}olleh\u{2066}"#)
    }

    @Test func printableTextIsLeftAsItIs() {
        for text in ["hello, screens", "日本語 café e\u{301}", "👨\u{200D}👩\u{200D}👧 🇯🇵", #"a \u{1B} typed out"#, "─│…"] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    @Test func escapedTextHasTheWidthOfItsSpelling() {
        #expect(TerminalText.width(of: TerminalText.escaped("\u{1B}")) == 6)  // \u{1B}
    }
}
