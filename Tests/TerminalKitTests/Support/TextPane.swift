import TerminalKit

/// A pane that shows fixed lines, for the layout's tests.
struct TextPane: Pane {
    var title: String
    var body: [String] = []
    var footer = ""

    func lines(width: Int, rows: Int) -> [StyledLine] {
        body.map { StyledLine($0) }
    }
}

/// A pane that shows the size it is asked to fill, as `width x rows`.
struct SizePane: Pane {
    var title = "size"
    var footer = ""

    func lines(width: Int, rows: Int) -> [StyledLine] {
        [StyledLine("\(width) x \(rows)")]
    }
}

/// `count` spaces.
func spaces(_ count: Int) -> String {
    String(repeating: " ", count: count)
}

/// A horizontal border `count` columns long.
func rule(_ count: Int) -> String {
    String(repeating: "─", count: count)
}
