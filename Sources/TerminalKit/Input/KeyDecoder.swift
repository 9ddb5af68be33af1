/// Reads the bytes a terminal in raw mode sends into keys.
///
/// UTF-8 characters and escape sequences may arrive split across reads; the decoder keeps the start of one
/// until the rest arrives. Escape sequences (arrow and function keys) and control characters that are no key
/// of ``Key`` are dropped, so that a typed line holds printable text only; bytes that are no UTF-8 become
/// U+FFFD.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.keys(from: [0x68, 0xC3])   // [.text("h")]: the second byte starts a character
/// decoder.keys(from: [0xA9, 0x0D])   // [.text("é"), .enter]
/// ```
package struct KeyDecoder: Sendable {
    /// The start of a character or an escape sequence whose end has not arrived yet.
    private var pending: [UInt8] = []

    /// Creates a decoder with nothing pending.
    package init() {}

    /// The keys that `bytes` complete, in the order they were typed; text typed in a row is one key.
    package mutating func keys(from bytes: some Sequence<UInt8>) -> [Key] {
        let input = pending + bytes
        pending = []
        var keys: [Key] = []
        var index = 0
        while index < input.count {
            guard let (key, length) = Self.key(in: input[index...]) else {
                pending = Array(input[index...])  // an incomplete character or sequence
                break
            }
            index += length
            switch (keys.last, key) {
            case (.text(let before)?, .text(let text)?): keys[keys.count - 1] = .text(before + text)
            case (_, let key?): keys.append(key)
            case (_, nil): break
            }
        }
        return keys
    }

    /// The key at the start of `bytes` and how many bytes it takes, with a nil key for bytes that are dropped;
    /// nil when `bytes` ends before the key does.
    private static func key(in bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B: return escapeSequenceLength(in: bytes).map { (nil, $0) }
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.endOfInput, 1)
        case 0x08, 0x7F: return (.backspace, 1)
        case 0x0A, 0x0D: return (.enter, 1)
        case 0x15: return (.deleteLine, 1)
        case 0x17: return (.deleteWord, 1)
        case 0x00..<0x20: return (nil, 1)
        case 0x20..<0x80: return (.text(String(UnicodeScalar(first))), 1)
        default: return character(in: bytes)
        }
    }

    /// The length of the escape sequence at the start of `bytes`: `ESC [ ... final`, `ESC O x`, or a lone
    /// `ESC` before anything else; nil when it is not complete yet.
    private static func escapeSequenceLength(in bytes: ArraySlice<UInt8>) -> Int? {
        let start = bytes.startIndex
        guard bytes.count > 1 else { return nil }
        switch bytes[start + 1] {
        case UInt8(ascii: "["):
            // Parameters and intermediates, then a final byte from @ to ~.
            guard let final = bytes[(start + 2)...].firstIndex(where: { (0x40...0x7E).contains($0) }) else {
                return nil
            }
            return final - start + 1
        case UInt8(ascii: "O"):
            return bytes.count > 2 ? 3 : nil
        default:
            return 1
        }
    }

    /// The UTF-8 character at the start of `bytes`, as text, and its length; U+FFFD for a byte that starts no
    /// character. Control characters (C1) are dropped.
    private static func character(in bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let start = bytes.startIndex
        let length =
            switch bytes[start] {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 1
            }
        guard length > 1 else { return (.text("\u{FFFD}"), 1) }
        let continuation = bytes.dropFirst().prefix(length - 1)
        if let bad = continuation.firstIndex(where: { $0 & 0xC0 != 0x80 }) {
            return (.text("\u{FFFD}"), bad - start)
        }
        guard continuation.count == length - 1 else { return nil }
        let text = String(decoding: bytes.prefix(length), as: UTF8.self)
        let isControl = text.unicodeScalars.contains { $0.properties.generalCategory == .control }
        return (isControl ? nil : .text(text), length)
    }
}
