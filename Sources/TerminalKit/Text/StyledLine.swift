/// One line of the full-screen view: runs of text, each in a style.
///
/// A line escapes what it is given: ``append(_:style:)`` shows control characters and escape sequences as
/// text (see ``TerminalText``), so a line never holds a byte that would steer the terminal, and its ``width``
/// is the number of columns it takes.
///
/// ```swift
/// var line = StyledLine()
/// line.append("inbox#1", style: .bold)
/// line.append(" \u{1B}[2J")        // shown as " \u{1B}[2J", not obeyed
/// line.fitted(to: 12).text          // "inbox#1 \\u{…"
/// ```
package struct StyledLine: Sendable, Hashable {
    /// A stretch of text in one style.
    package struct Run: Sendable, Hashable {
        /// The text, already escaped.
        package var text: String
        /// How it is drawn.
        package var style: TextStyle
    }

    /// The runs, left to right.
    package private(set) var runs: [Run] = []

    /// The number of columns the line takes on a terminal.
    package private(set) var width = 0

    /// Creates an empty line.
    package init() {}

    /// Creates a line of `text` in one style.
    package init(_ text: String, style: TextStyle = .plain) {
        append(text, style: style)
    }

    /// Adds `text` at the end of the line, escaped.
    package mutating func append(_ text: String, style: TextStyle = .plain) {
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
    package mutating func append(_ line: StyledLine) {
        for run in line.runs {
            append(run.text, style: run.style)
        }
    }

    /// The text of the line without its styles.
    package var text: String {
        runs.map(\.text).joined()
    }

    /// The line as the terminal receives it: its text, with the styles' sequences around the runs when
    /// `colored`.
    package func encoded(colored: Bool) -> String {
        colored ? runs.map { $0.style.painted($0.text) }.joined() : text
    }

    /// The line made exactly `columns` wide: padded with spaces, or cut with an ellipsis when it is longer.
    ///
    /// A wide character that would straddle the edge is left out and a space takes its place; combining marks
    /// stay with the character they follow.
    package func fitted(to columns: Int) -> StyledLine {
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
