import TerminalKit
import Testing

@Suite struct FrameEncoderTests {
    @Test func encoderRedrawsOnlyTheLinesThatChanged() {
        var encoder = FrameEncoder(colored: false)
        let first = Frame(lines: ["one", "two", "> "].map { StyledLine($0) }, cursorRow: 2, cursorColumn: 2)
        var second = first
        second.lines[1] = StyledLine("TWO")
        second.cursorColumn = 1

        #expect(
            encoder.update(to: first)
                == "\u{1B}[?25l\u{1B}[2J\u{1B}[1;1H\u{1B}[2Kone\u{1B}[2;1H\u{1B}[2Ktwo\u{1B}[3;1H\u{1B}[2K> "
                + "\u{1B}[3;3H\u{1B}[?25h")
        #expect(encoder.update(to: second) == "\u{1B}[?25l\u{1B}[2;1H\u{1B}[2KTWO\u{1B}[3;2H\u{1B}[?25h")
        #expect(encoder.update(to: second) == "\u{1B}[?25l\u{1B}[3;2H\u{1B}[?25h")
    }

    @Test func encoderClearsAndRedrawsEverythingAfterAResize() {
        var encoder = FrameEncoder(colored: false)
        let small = Frame(lines: ["ab", "> "].map { StyledLine($0) }, cursorRow: 1, cursorColumn: 2)
        let wide = Frame(lines: ["ab ", ">  "].map { StyledLine($0) }, cursorRow: 1, cursorColumn: 2)
        _ = encoder.update(to: small)

        let sent = encoder.update(to: wide)

        #expect(sent.contains("\u{1B}[2J"))
        #expect(sent.contains("\u{1B}[1;1H\u{1B}[2Kab "))
        #expect(sent.contains("\u{1B}[2;1H\u{1B}[2K>  "))
    }

    @Test func colorsOnlyWhenAsked() {
        let frame = Frame(lines: [StyledLine("error: no", style: .red)], cursorRow: 0, cursorColumn: 0)
        var colored = FrameEncoder(colored: true)
        var plain = FrameEncoder(colored: false)

        #expect(colored.update(to: frame).contains("\u{1B}[31merror: no\u{1B}[0m"))
        #expect(!plain.update(to: frame).contains("\u{1B}[31m"))
    }
}
