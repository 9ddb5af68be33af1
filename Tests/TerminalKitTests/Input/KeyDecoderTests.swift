import TerminalKit
import Testing

@Suite struct KeyDecoderTests {
    @Test func printableBytesInARowAreOneTextKey() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Array("hi there".utf8)) == [.text("hi there")])
    }

    @Test func controlKeys() {
        var decoder = KeyDecoder()
        #expect(
            decoder.keys(from: [0x61, 0x0D, 0x7F, 0x08, 0x15, 0x17, 0x03, 0x04, 0x0A])
                == [
                    .text("a"), .enter, .backspace, .backspace, .deleteLine, .deleteWord, .interrupt, .endOfInput,
                    .enter,
                ])
    }

    @Test func aCharacterSplitAcrossReadsWaitsForItsEnd() {
        var decoder = KeyDecoder()
        let bytes = Array("é日😀".utf8)  // 2, 3 and 4 bytes

        #expect(decoder.keys(from: bytes[0..<1]) == [])
        #expect(decoder.keys(from: bytes[1..<3]) == [.text("é")])
        #expect(decoder.keys(from: bytes[3..<7]) == [.text("日")])
        #expect(decoder.keys(from: bytes[7..<9]) == [.text("😀")])
    }

    @Test func escapeSequencesAreDroppedEvenSplit() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Array("a\u{1B}[Ab\u{1B}OPc\u{1B}[1;5D".utf8)) == [.text("abc")])  // arrows, F1
        #expect(decoder.keys(from: Array("\u{1B}[2".utf8)) == [])
        #expect(decoder.keys(from: Array("00~d".utf8)) == [.text("d")])  // the end of ESC [ 200 ~
    }

    @Test func otherControlCharactersAndBadBytesAreNotTyped() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: [0x61, 0x01, 0x1A, 0x09, 0x62]) == [.text("ab")])
        #expect(decoder.keys(from: [0xC2, 0x9B, 0x63]) == [.text("c")])  // C1 CSI, in UTF-8
        #expect(decoder.keys(from: [0xFF, 0x64, 0xC3, 0x28]) == [.text("\u{FFFD}d\u{FFFD}(")])
    }
}
