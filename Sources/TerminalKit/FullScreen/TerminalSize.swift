/// The size of a terminal, in character cells.
package struct TerminalSize: Sendable, Hashable {
    /// The number of lines.
    package var rows: Int
    /// The number of columns.
    package var columns: Int

    /// Creates a size of `rows` lines of `columns` columns.
    package init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}
