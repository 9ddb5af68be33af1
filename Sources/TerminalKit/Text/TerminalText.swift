/// How text looks on a terminal: which characters are shown escaped, and how many columns the rest take.
///
/// The full-screen view lines panes up side by side, so it must know where each character ends on the screen.
/// A terminal gives most characters one column, East Asian wide and fullwidth characters and emoji two, and
/// combining marks none: they join the character before them. The rules here are those of `wcwidth` as glibc
/// and tmux apply them, written over `Unicode.Scalar.Properties` and a table of the wide ranges:
///
/// - a scalar that ``escaped(_:)`` escapes never reaches the terminal, so it has no width of its own;
/// - nonspacing and enclosing marks (`e\u{301}`), format characters (zero-width joiner and space) and the
///   medial and final jamo of Hangul take 0 columns;
/// - the ranges that East Asian Width marks wide or fullwidth (CJK ideographs, kana, Hangul syllables,
///   fullwidth forms) take 2, the unassigned code points inside them too, as `wcwidth` counts them;
/// - emoji shown as emoji by default (`Emoji_Presentation`) take 2, except regional indicators, which take
///   1 each, so that a flag, a pair of them, takes 2;
/// - a scalar that a zero-width joiner joins to the emoji before it, in one grapheme cluster, takes 0: the
///   terminal draws the sequence as one emoji;
/// - everything else takes 1, ambiguous-width characters such as box drawing and `…` included, as terminals
///   outside legacy East Asian settings draw them.
///
/// ```swift
/// TerminalText.width(of: "日本")          // 4
/// TerminalText.width(of: "e\u{301}")     // 1
/// TerminalText.escaped("a\u{1B}[31mb")   // "a\\u{1B}[31mb": the escape sequence shown, not obeyed
/// ```
package enum TerminalText {
    /// The text with every scalar that would steer the terminal instead of being shown replaced by its Swift
    /// spelling, such as `\u{1B}`.
    ///
    /// Escaped are the control characters (C0, DEL and C1: escape, carriage return, tab, CSI, ...), the line
    /// and paragraph separators, and the bidirectional controls, which would reorder the text around them.
    /// Everything the full-screen view draws passes through here, whatever the program was given to show.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether ``escaped(_:)`` replaces a scalar.
    package static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: scalar.properties.isBidiControl
        }
    }

    /// The number of columns `text` takes on a terminal, once escaped.
    package static func width(of text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// The number of columns a character takes: the sum of its scalars' widths, less the scalars that a
    /// zero-width joiner joins to an emoji.
    package static func width(of character: Character) -> Int {
        var width = 0
        var joined = false
        for scalar in character.unicodeScalars {
            if !joined { width += self.width(of: scalar) }
            joined = scalar == zeroWidthJoiner
        }
        return width
    }

    /// The number of columns a scalar takes on its own: 0, 1 or 2.
    package static func width(of scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        let value = scalar.value
        if hangulJamoFollowers.contains(where: { $0.contains(value) }) { return 0 }
        if wideRanges.contains(where: { $0.contains(value) }) { return 2 }
        if properties.isEmojiPresentation && !regionalIndicators.contains(value) { return 2 }
        return 1
    }

    /// U+200D, which joins the emoji on either side into one.
    private static let zeroWidthJoiner: Unicode.Scalar = "\u{200D}"

    /// The Hangul jamo that a terminal draws inside the syllable block of the jamo before them.
    private static let hangulJamoFollowers: [ClosedRange<UInt32>] = [0x1160...0x11FF, 0xD7B0...0xD7FF]

    /// The regional indicator letters, which pair into flags.
    private static let regionalIndicators: ClosedRange<UInt32> = 0x1F1E6...0x1F1FF

    /// The ranges that East Asian Width (Unicode 15) marks wide (W) or fullwidth (F), other than emoji, merged
    /// across the unassigned code points between them.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul jamo, leading consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi radicals, ideographic description, CJK symbols and punctuation
        0x3041...0x3247,  // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, enclosed CJK
        0x3250...0x4DBF,  // enclosed CJK, CJK compatibility, CJK extension A
        0x4E00...0xA4CF,  // CJK unified ideographs, Yi
        0xA960...0xA97F,  // Hangul jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x1B2FF,  // ideographic symbols, Tangut, Khitan, kana supplements, Nushu
        0x1F200...0x1F265,  // enclosed ideographic supplement
        0x20000...0x3FFFD,  // CJK extensions B and later, the supplementary and tertiary ideographic planes
    ]
}
