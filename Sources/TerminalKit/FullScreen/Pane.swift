/// What a pane of the full-screen view shows: a title in its top border, lines inside it, and a footer on its
/// last line inside.
///
/// ```swift
/// struct Log: Pane {
///     var entries: [String]
///     var title: String { "log" }
///     var footer: String { "\(entries.count) entries" }
///     func lines(width: Int, rows: Int) -> [StyledLine] {
///         entries.suffix(rows).map { StyledLine($0) }  // the latest at the bottom
///     }
/// }
/// ```
package protocol Pane {
    /// The title, drawn in bold in the top border; cut to fit.
    var title: String { get }

    /// The last line inside the pane, drawn faint: counters or a hint; cut to fit.
    var footer: String { get }

    /// The lines above the footer, top first.
    ///
    /// The layout shows the first `rows` lines, fills the rows below the last one with blank lines, and fits
    /// each line to `width`, cutting it with an ellipsis if it is wider.
    ///
    /// - Parameters:
    ///   - width: The columns inside the pane; 0 or more.
    ///   - rows: The lines above the footer; 0 or more.
    func lines(width: Int, rows: Int) -> [StyledLine]
}
