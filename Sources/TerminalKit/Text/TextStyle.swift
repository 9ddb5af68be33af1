/// How a run of text is drawn: the few looks the full-screen view uses, and the console's colors.
package enum TextStyle: Sendable, Hashable {
    /// No decoration.
    case plain
    /// Bold, for pane titles and the prompt.
    case bold
    /// Faint, for counters and hints.
    case dim
    /// Reversed foreground and background, for text that stands out, such as a notification.
    case reverse
    /// Green, for what arrived or went well.
    case green
    /// Bold green, for a badge: a count that asks for attention.
    case badge
    /// Orange, for a change of state, such as something that joined.
    case orange
    /// Red, for errors.
    case red

    /// The ANSI select-graphic-rendition sequence that turns the style on; empty for ``plain``.
    package var escapeSequence: String {
        switch self {
        case .plain: ""
        case .bold: "\u{1B}[1m"
        case .dim: "\u{1B}[2m"
        case .reverse: "\u{1B}[7m"
        case .green: "\u{1B}[32m"
        case .badge: "\u{1B}[1;32m"
        case .orange: "\u{1B}[38;5;208m"
        case .red: "\u{1B}[31m"
        }
    }

    /// The sequence that turns every style off.
    package static let resetSequence = "\u{1B}[0m"

    /// `text` with this style on, then off; `text` itself for ``plain``.
    func painted(_ text: String) -> String {
        self == .plain ? text : escapeSequence + text + Self.resetSequence
    }
}
