/// Lays out the full-screen view: a pure function from what there is to show and the terminal's size to the
/// lines of the screen, so that it is tested without a terminal.
///
/// From the top: the panes, side by side, wrapping to more rows when the terminal is too narrow for them all;
/// the status lines, what the program said about the last line of input; the input line.
///
/// ```text
/// ┌ inbox ────────────────┐┌ log ──────────────────┐┌ clock ────────────────┐
/// │ 2 new                 ││ started               ││ 12:00                 │
/// │                       ││ connected             ││                       │
/// │                       ││                       ││                       │
/// │ the footer            ││ 2 entries             ││ local time            │
/// └───────────────────────┘└───────────────────────┘└───────────────────────┘
/// a status line
/// > typed so far
/// ```
///
/// Every line of a frame is exactly as wide as the terminal, measured by ``TerminalText``, and holds no
/// control character: what a pane or a status line says is escaped, whatever it says.
package enum Layout {
    /// The narrowest a pane gets before the panes wrap to another row.
    package static let minimumPaneWidth = 24

    /// The lowest a pane gets: its borders, a line of content and its footer. Rows of panes that do not fit
    /// are left out, and a line says how many panes that hides.
    package static let minimumPaneHeight = 4

    /// The frame for a terminal of `size`.
    ///
    /// - Parameters:
    ///   - panes: The panes to draw, left to right, then top to bottom.
    ///   - placeholder: What to show where the panes go when there is none.
    ///   - status: What the program said about the last line of input.
    ///   - input: The line being typed.
    ///   - size: The terminal's size.
    /// - Returns: Exactly `size.rows` lines, each `size.columns` wide, and the cursor at the end of the input.
    package static func frame(
        panes: [some Pane], placeholder: String, status: [StatusLine], input: String, size: TerminalSize
    ) -> Frame {
        let rows = size.rows
        let columns = size.columns
        guard rows > 0, columns > 0 else { return Frame(lines: [], cursorRow: 0, cursorColumn: 0) }
        let statusRows = rows > 1 ? min(max(1, status.count), max(1, (rows - 1) / 3)) : 0
        var lines = grid(panes, placeholder: placeholder, rows: rows - 1 - statusRows, columns: columns)
        lines += statusLines(status, rows: statusRows, columns: columns)
        let (prompt, cursor) = inputLine(input, columns: columns)
        lines.append(prompt)
        return Frame(lines: lines, cursorRow: rows - 1, cursorColumn: cursor)
    }

    // MARK: - Panes

    /// The panes in a grid that fills `rows` lines of `columns` columns; the placeholder if there is none.
    static func grid(_ panes: [some Pane], placeholder: String, rows: Int, columns: Int) -> [StyledLine] {
        guard rows > 0 else { return [] }
        let blank = StyledLine().fitted(to: columns)
        guard !panes.isEmpty else {
            let hint = StyledLine(placeholder, style: .dim)
            return [hint.fitted(to: columns)] + Array(repeating: blank, count: rows - 1)
        }
        let perRow = max(1, min(panes.count, columns / minimumPaneWidth))
        var gridRows = (panes.count + perRow - 1) / perRow
        var height = rows
        var note: StyledLine?
        if gridRows * minimumPaneHeight > height {
            height -= 1  // for the note
            gridRows = height / minimumPaneHeight
            let hidden = panes.count - gridRows * perRow
            let text = hidden == 1 ? "1 more pane does not fit" : "\(hidden) more panes do not fit"
            note = StyledLine(text + ": a larger terminal shows them", style: .dim).fitted(to: columns)
        }
        var lines: [StyledLine] = []
        for gridRow in 0..<gridRows {
            let rowPanes = panes.dropFirst(gridRow * perRow).prefix(perRow)
            let rowHeight = share(gridRow, of: height, among: gridRows)
            let boxes = rowPanes.enumerated().map { index, pane in
                box(pane, width: share(index, of: columns, among: rowPanes.count), height: rowHeight)
            }
            for line in 0..<rowHeight {
                var joined = StyledLine()
                for box in boxes {
                    joined.append(box[line])
                }
                lines.append(joined)
            }
        }
        lines += Array(repeating: blank, count: height - lines.count)
        if let note { lines.append(note) }
        return lines
    }

    /// The size of part `index` when `total` is cut into `parts` parts as equal as can be, the first parts
    /// taking the remainder.
    static func share(_ index: Int, of total: Int, among parts: Int) -> Int {
        total / parts + (index < total % parts ? 1 : 0)
    }

    /// A pane's box: its title in the top border, its lines, and its footer on the last line inside.
    static func box(_ pane: some Pane, width: Int, height: Int) -> [StyledLine] {
        guard width >= 2, height >= 2 else {
            return Array(repeating: StyledLine().fitted(to: width), count: max(0, height))
        }
        let title = StyledLine(" \(pane.title) ", style: .bold)
        var top = StyledLine("┌")
        if title.width <= width - 2 {
            top.append(title)
            top.append(String(repeating: "─", count: width - 2 - title.width))
        } else {
            top.append(title.fitted(to: width - 2))
        }
        top.append("┐")

        var lines = [top]
        for content in content(of: pane, width: max(0, width - 4), height: height - 2) {
            var line = StyledLine("│")
            line.append(width >= 4 ? StyledLine(" ") : StyledLine())
            line.append(content.fitted(to: max(0, width - 4)))
            line.append(width >= 4 ? " │" : String(repeating: " ", count: width - 2) + "│")
            lines.append(line)
        }
        lines.append(StyledLine("└" + String(repeating: "─", count: width - 2) + "┘"))
        return lines
    }

    /// What a pane shows inside its borders: exactly `height` lines, the last one its footer.
    static func content(of pane: some Pane, width: Int, height: Int) -> [StyledLine] {
        guard height > 0 else { return [] }
        let rows = height - 1
        var body = Array(pane.lines(width: width, rows: rows).prefix(rows))
        body += Array(repeating: StyledLine(), count: rows - body.count)
        return body + [StyledLine(pane.footer, style: .dim)]
    }

    // MARK: - Status and input

    /// The status lines: what the program said, in its styles; when there is too much, the last row says how
    /// many lines it leaves out.
    static func statusLines(_ status: [StatusLine], rows: Int, columns: Int) -> [StyledLine] {
        guard rows > 0 else { return [] }
        var lines = status.prefix(rows).map { StyledLine($0.text, style: $0.style) }
        if status.count > rows {
            let hidden = status.count - rows + 1
            lines[rows - 1] = StyledLine("+\(hidden) more lines: a taller terminal shows them", style: .dim)
        }
        lines += Array(repeating: StyledLine(), count: rows - lines.count)
        return lines.map { $0.fitted(to: columns) }
    }

    /// The input line, `> ` and what is typed; when it is too long, its end, so that the cursor shows.
    ///
    /// - Returns: The line, and the column of the cursor after the text.
    static func inputLine(_ input: String, columns: Int) -> (StyledLine, cursor: Int) {
        var line = StyledLine("> ", style: .bold)
        let typed = StyledLine(input)
        let room = columns - 1 - line.width  // the last column is the cursor's
        if typed.width > room {
            line.append("…", style: .dim)
            var tail = ""
            var width = 0
            for character in typed.text.reversed() {
                width += TerminalText.width(of: character)
                if width > room - 1 { break }
                tail.insert(character, at: tail.startIndex)
            }
            line.append(tail)
        } else {
            line.append(typed)
        }
        return (line.fitted(to: columns), min(line.width, columns - 1))
    }
}
