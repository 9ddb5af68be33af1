/// A line the program said, in its style: a status line of the full-screen view.
package struct StatusLine: Sendable, Hashable {
    /// What was said.
    package var text: String
    /// How it is drawn.
    package var style: TextStyle

    /// Creates a status line.
    package init(_ text: String, style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }
}
