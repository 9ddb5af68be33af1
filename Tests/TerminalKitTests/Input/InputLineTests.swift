import TerminalKit
import Testing

@Suite struct InputLineTests {
    @Test func typingEditsTheLineAndReturnSubmitsIt() {
        var line = InputLine()
        #expect(line.apply(.text("hello wor")) == .editing)
        #expect(line.apply(.backspace) == .editing)
        #expect(line.apply(.text("ld e\u{301}")) == .editing)
        #expect(line.text == "hello wold e\u{301}")
        #expect(line.apply(.backspace) == .editing)  // the whole é, mark and all
        #expect(line.text == "hello wold ")
        #expect(line.apply(.deleteWord) == .editing)
        #expect(line.text == "hello ")

        #expect(line.apply(.enter) == .submitted("hello "))
        #expect(line.text == "")
        #expect(line.apply(.backspace) == .editing)
        #expect(line.apply(.enter) == .submitted(""))
    }

    @Test func controlDEndsOnlyAnEmptyLineAndControlCAlways() {
        var line = InputLine()
        #expect(line.apply(.text("draft")) == .editing)
        #expect(line.apply(.endOfInput) == .editing)
        #expect(line.text == "draft")
        #expect(line.apply(.interrupt) == .interrupted)
        #expect(line.apply(.deleteLine) == .editing)
        #expect(line.apply(.endOfInput) == .ended)
    }
}
