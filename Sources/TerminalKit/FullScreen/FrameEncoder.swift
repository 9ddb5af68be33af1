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
package struct FrameEncoder: Sendable {
    /// Whether the styles' colors are sent.
    package let colored: Bool

    /// The lines on the terminal, as sent; empty before the first frame and after a resize.
    private var shown: [String] = []

    /// The size of the last frame.
    private var shownSize: TerminalSize?

    /// Creates an encoder for a terminal that shows nothing of ours yet.
    package init(colored: Bool) {
        self.colored = colored
    }

    /// What to send to show `frame`: the whole frame on a cleared screen if it is the first or the size
    /// changed, else the lines that changed.
    package mutating func update(to frame: Frame) -> String {
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
