/// The line being typed on the full-screen view, and what each key does to it.
package struct InputLine: Sendable, Hashable {
    /// What a key led to.
    package enum Outcome: Sendable, Hashable {
        /// The line changed, or not; typing goes on.
        case editing
        /// Return was pressed: the line as it was; the input line is empty again.
        case submitted(String)
        /// Control-C was pressed.
        case interrupted
        /// Control-D was pressed on an empty line.
        case ended
    }

    /// What is typed so far.
    package private(set) var text = ""

    /// Creates an empty line.
    package init() {}

    /// Applies a key to the line.
    ///
    /// Control-D ends the input only on an empty line, as in a shell; on a line with text it does nothing.
    package mutating func apply(_ key: Key) -> Outcome {
        switch key {
        case .text(let typed):
            text += typed
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .deleteLine:
            text = ""
        case .deleteWord:
            let kept = text.reversed().drop(while: \.isWhitespace).drop { !$0.isWhitespace }
            text = String(kept.reversed())
        case .enter:
            defer { text = "" }
            return .submitted(text)
        case .interrupt:
            return .interrupted
        case .endOfInput:
            return text.isEmpty ? .ended : .editing
        }
        return .editing
    }
}
