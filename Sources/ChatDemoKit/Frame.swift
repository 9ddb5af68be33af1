/// The size of a terminal, in character cells.
public struct TerminalSize: Sendable, Hashable {
    /// The number of lines.
    public var rows: Int
    /// The number of columns.
    public var columns: Int

    /// Creates a size of `rows` lines of `columns` columns.
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}

/// How a run of text is drawn: the few looks the full-screen view uses, and the console's colors.
public enum TextStyle: Sendable, Hashable {
    /// No decoration.
    case plain
    /// Bold, for pane titles and the prompt.
    case bold
    /// Faint, for counters and hints.
    case dim
    /// Reversed foreground and background, for the banner.
    case reverse
    /// Green, for what a screen received.
    case green
    /// Bold green, for unread badges.
    case badge
    /// Orange, for a screen that subscribed.
    case orange
    /// Red, for errors.
    case red

    /// The ANSI select-graphic-rendition sequence that turns the style on; empty for ``plain``.
    public var escapeSequence: String {
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
    public static let resetSequence = "\u{1B}[0m"

    /// `text` with this style on, then off; `text` itself for ``plain``.
    func painted(_ text: String) -> String {
        self == .plain ? text : escapeSequence + text + Self.resetSequence
    }
}

/// One line of the full-screen view: runs of text, each in a style.
///
/// A line escapes what it is given: ``append(_:style:)`` shows control characters and escape sequences as
/// text (see ``TerminalText``), so a line never holds a byte that would steer the terminal, and its ``width``
/// is the number of columns it takes.
///
/// ```swift
/// var line = StyledLine()
/// line.append("chats#1", style: .bold)
/// line.append(" \u{1B}[2J")        // shown as " \u{1B}[2J", not obeyed
/// line.fitted(to: 12).text          // "chats#1 \\u{…"
/// ```
public struct StyledLine: Sendable, Hashable {
    /// A stretch of text in one style.
    public struct Run: Sendable, Hashable {
        /// The text, already escaped.
        public var text: String
        /// How it is drawn.
        public var style: TextStyle
    }

    /// The runs, left to right.
    public private(set) var runs: [Run] = []

    /// The number of columns the line takes on a terminal.
    public private(set) var width = 0

    /// Creates an empty line.
    public init() {}

    /// Creates a line of `text` in one style.
    public init(_ text: String, style: TextStyle = .plain) {
        append(text, style: style)
    }

    /// Adds `text` at the end of the line, escaped.
    public mutating func append(_ text: String, style: TextStyle = .plain) {
        let escaped = TerminalText.escaped(text)
        guard !escaped.isEmpty else { return }
        width += TerminalText.width(of: escaped)
        if let last = runs.last, last.style == style {
            runs[runs.count - 1].text += escaped
        } else {
            runs.append(Run(text: escaped, style: style))
        }
    }

    /// Adds another line's runs at the end of this one.
    public mutating func append(_ line: StyledLine) {
        for run in line.runs {
            append(run.text, style: run.style)
        }
    }

    /// The text of the line without its styles.
    public var text: String {
        runs.map(\.text).joined()
    }

    /// The line as the terminal receives it: its text, with the styles' sequences around the runs when
    /// `colored`.
    public func encoded(colored: Bool) -> String {
        colored ? runs.map { $0.style.painted($0.text) }.joined() : text
    }

    /// The line made exactly `columns` wide: padded with spaces, or cut with an ellipsis when it is longer.
    ///
    /// A wide character that would straddle the edge is left out and a space takes its place; combining marks
    /// stay with the character they follow.
    public func fitted(to columns: Int) -> StyledLine {
        guard columns > 0 else { return StyledLine() }
        guard width > columns else { return padded(to: columns) }
        var result = StyledLine()
        var room = columns - 1  // one column for the ellipsis
        var style = TextStyle.plain
        var isFull = false
        for run in runs where !isFull {
            style = run.style
            var kept = ""
            for character in run.text {
                let width = TerminalText.width(of: character)
                if width > room {
                    isFull = true
                    break
                }
                kept.append(character)
                room -= width
            }
            result.append(kept, style: run.style)
        }
        result.append("…", style: style)
        return result.padded(to: columns)
    }

    /// The line with spaces after it up to `columns`, or as it is if it is as wide already.
    func padded(to columns: Int) -> StyledLine {
        var result = self
        if columns > width {
            result.append(String(repeating: " ", count: columns - width))
        }
        return result
    }
}

/// What the full-screen view shows at one moment: a line per terminal row, and where the cursor goes.
public struct Frame: Sendable, Hashable {
    /// The terminal's rows, top first; each exactly as wide as the terminal.
    public var lines: [StyledLine]

    /// The row of the cursor, from 0: the input line's.
    public var cursorRow: Int

    /// The column of the cursor, from 0: after the text typed so far.
    public var cursorColumn: Int

    /// The frame's rows as plain text, top first: what a capture of the terminal shows.
    public var text: [String] {
        lines.map(\.text)
    }
}

/// Turns frames into what the terminal is sent to show them: only the lines that changed since the last
/// frame, each rewritten whole, then the cursor put at the input line.
///
/// ```swift
/// var encoder = FrameEncoder(colored: true)
/// write(encoder.update(to: first))   // clears the screen and draws every line
/// write(encoder.update(to: second))  // redraws the lines that differ
/// ```
///
/// What it sends is the frame's escaped text and the sequences written here: cursor moves, erasing, hiding
/// and showing the cursor, and the styles' colors when `colored`.
public struct FrameEncoder: Sendable {
    /// Whether the styles' colors are sent.
    public let colored: Bool

    /// The lines on the terminal, as sent; empty before the first frame and after a resize.
    private var shown: [String] = []

    /// The size of the last frame.
    private var shownSize: TerminalSize?

    /// Creates an encoder for a terminal that shows nothing of ours yet.
    public init(colored: Bool) {
        self.colored = colored
    }

    /// What to send to show `frame`: the whole frame on a cleared screen if it is the first or the size
    /// changed, else the lines that changed.
    public mutating func update(to frame: Frame) -> String {
        let size = TerminalSize(rows: frame.lines.count, columns: frame.lines.first?.width ?? 0)
        var output = "\u{1B}[?25l"  // no cursor flickering across the screen while lines are drawn
        if size != shownSize {
            output += "\u{1B}[2J"
            shown = []
            shownSize = size
        }
        let lines = frame.lines.map { $0.encoded(colored: colored) }
        for (row, line) in lines.enumerated() where row >= shown.count || shown[row] != line {
            output += "\u{1B}[\(row + 1);1H\u{1B}[2K" + line  // move to the row, erase it, write it
        }
        shown = lines
        output += "\u{1B}[\(frame.cursorRow + 1);\(frame.cursorColumn + 1)H\u{1B}[?25h"
        return output
    }
}
