/// What the full-screen view shows at one moment: a line per terminal row, and where the cursor goes.
package struct Frame: Sendable, Hashable {
    /// The terminal's rows, top first; each exactly as wide as the terminal.
    package var lines: [StyledLine]

    /// The row of the cursor, from 0: the input line's.
    package var cursorRow: Int

    /// The column of the cursor, from 0: after the text typed so far.
    package var cursorColumn: Int

    /// Creates a frame of `lines`, with the cursor at `cursorRow` and `cursorColumn`.
    package init(lines: [StyledLine], cursorRow: Int, cursorColumn: Int) {
        self.lines = lines
        self.cursorRow = cursorRow
        self.cursorColumn = cursorColumn
    }

    /// The frame's rows as plain text, top first: what a capture of the terminal shows.
    package var text: [String] {
        lines.map(\.text)
    }
}
