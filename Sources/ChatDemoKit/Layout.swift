/// Lays out the full-screen view: a pure function from what there is to show and the terminal's size to the
/// lines of the screen, so that it is tested without a terminal.
///
/// From the top: a pane per screen, side by side, wrapping to more rows when the terminal is too narrow for
/// them all; the status lines, what the session said about the last line of input; the input line.
///
/// ```text
/// ┌ chats#1 ──────────────┐┌ conversation#1 ───────┐┌ banner#1 ─────────────┐
/// │ general           (1) ││ #general              ││  [general] hi         │
/// │   hi                  ││                       ││                       │
/// │                       ││ › hi                  ││                       │
/// │ 1 unread · 1 received ││ 1 received            ││ 1 received            │
/// └───────────────────────┘└───────────────────────┘└───────────────────────┘
/// banner#1 received "hi" · shows [general] hi
/// >
/// ```
///
/// Every line of a frame is exactly as wide as the terminal, measured by ``TerminalText``, and holds no
/// control character: what a message says is escaped, whatever it says.
public enum Layout {
    /// The narrowest a pane gets before the panes wrap to another row.
    public static let minimumPaneWidth = 24

    /// The lowest a pane gets: its borders, a line of content and its counter. Rows of panes that do not fit
    /// are left out, and a line says how many screens that hides.
    public static let minimumPaneHeight = 4

    /// The frame for a terminal of `size`.
    ///
    /// - Parameters:
    ///   - screens: The screens to draw, in the order the multicast calls them.
    ///   - status: What the session said about the last line of input.
    ///   - input: The line being typed.
    ///   - size: The terminal's size.
    /// - Returns: Exactly `size.rows` lines, each `size.columns` wide, and the cursor at the end of the input.
    public static func frame(
        screens: [ScreenSnapshot], status: [StatusLine], input: String, size: TerminalSize
    ) -> Frame {
        let rows = size.rows
        let columns = size.columns
        guard rows > 0, columns > 0 else { return Frame(lines: [], cursorRow: 0, cursorColumn: 0) }
        let statusRows = rows > 1 ? min(max(1, status.count), max(1, (rows - 1) / 3)) : 0
        var lines = panes(screens, rows: rows - 1 - statusRows, columns: columns)
        lines += statusLines(status, rows: statusRows, columns: columns)
        let (prompt, cursor) = inputLine(input, columns: columns)
        lines.append(prompt)
        return Frame(lines: lines, cursorRow: rows - 1, cursorColumn: cursor)
    }

    // MARK: - Panes

    /// The panes of `screens` in a grid that fills `rows` lines of `columns` columns.
    static func panes(_ screens: [ScreenSnapshot], rows: Int, columns: Int) -> [StyledLine] {
        guard rows > 0 else { return [] }
        let blank = StyledLine().fitted(to: columns)
        guard !screens.isEmpty else {
            let hint = StyledLine("no screen is open: /open chats, conversation or banner", style: .dim)
            return [hint.fitted(to: columns)] + Array(repeating: blank, count: rows - 1)
        }
        let perRow = max(1, min(screens.count, columns / minimumPaneWidth))
        var gridRows = (screens.count + perRow - 1) / perRow
        var height = rows
        var note: StyledLine?
        if gridRows * minimumPaneHeight > height {
            height -= 1  // for the note
            gridRows = height / minimumPaneHeight
            let hidden = screens.count - gridRows * perRow
            let text = hidden == 1 ? "1 more screen does not fit" : "\(hidden) more screens do not fit"
            note = StyledLine(text + ": a larger terminal shows them", style: .dim).fitted(to: columns)
        }
        var lines: [StyledLine] = []
        for gridRow in 0..<gridRows {
            let rowScreens = screens.dropFirst(gridRow * perRow).prefix(perRow)
            let rowHeight = share(gridRow, of: height, among: gridRows)
            let boxes = rowScreens.enumerated().map { index, screen in
                box(screen, width: share(index, of: columns, among: rowScreens.count), height: rowHeight)
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

    /// A screen's pane: its name in the top border, its content, and its counters on the last line inside.
    static func box(_ screen: ScreenSnapshot, width: Int, height: Int) -> [StyledLine] {
        guard width >= 2, height >= 2 else {
            return Array(repeating: StyledLine().fitted(to: width), count: max(0, height))
        }
        let title = StyledLine(" \(screen.name) ", style: .bold)
        var top = StyledLine("┌")
        if title.width <= width - 2 {
            top.append(title)
            top.append(String(repeating: "─", count: width - 2 - title.width))
        } else {
            top.append(title.fitted(to: width - 2))
        }
        top.append("┐")

        var lines = [top]
        for content in content(of: screen, width: width - 4, height: height - 2) {
            var line = StyledLine("│")
            line.append(width >= 4 ? StyledLine(" ") : StyledLine())
            line.append(content.fitted(to: max(0, width - 4)))
            line.append(width >= 4 ? " │" : String(repeating: " ", count: width - 2) + "│")
            lines.append(line)
        }
        lines.append(StyledLine("└" + String(repeating: "─", count: width - 2) + "┘"))
        return lines
    }

    /// What a pane shows inside its borders: exactly `height` lines, the last one its counters.
    static func content(of screen: ScreenSnapshot, width: Int, height: Int) -> [StyledLine] {
        guard height > 0 else { return [] }
        let rows = height - 1
        var body: [StyledLine]
        let counters: String
        switch screen.content {
        case .chats(let conversations):
            body = chats(conversations, rows: rows, width: width)
            let unread = conversations.reduce(0) { $0 + $1.unread }
            counters = "\(unread) unread · \(screen.received) received"
        case .conversation(let open, let bubbles):
            body = conversation(open, bubbles: bubbles, rows: rows)
            counters = "\(screen.received) received"
        case .banner(let text):
            body = text.map { [StyledLine(" \($0) ", style: .reverse)] } ?? []
            counters = "\(screen.received) received"
        }
        if body.isEmpty && rows > 0 {
            body = [StyledLine("no message yet", style: .dim)]
        }
        body = Array(body.prefix(rows))
        body += Array(repeating: StyledLine(), count: rows - body.count)
        return body + [StyledLine(counters, style: .dim)]
    }

    /// The chat list: two lines per conversation, the most recent first: its name and unread badge, then its
    /// latest message.
    static func chats(_ conversations: [ScreenSnapshot.Conversation], rows: Int, width: Int) -> [StyledLine] {
        let fitting = conversations.count * 2 <= rows ? conversations.count : max(0, (rows - 1) / 2)
        var lines: [StyledLine] = []
        for conversation in conversations.prefix(fitting) {
            let badge = StyledLine("(\(conversation.unread))", style: .badge)
            lines.append(spread(StyledLine(conversation.name, style: .bold), badge, width: width))
            lines.append(StyledLine("  " + conversation.latest))
        }
        if fitting < conversations.count {
            lines.append(StyledLine("+\(conversations.count - fitting) more", style: .dim))
        }
        return lines
    }

    /// The open conversation: its name, then as many of its last bubbles as fit, the latest at the bottom.
    static func conversation(_ open: String?, bubbles: [String], rows: Int) -> [StyledLine] {
        guard let open, rows > 0 else { return [] }
        let shown = bubbles.suffix(rows - 1)
        var lines = [StyledLine("#" + open, style: .bold)]
        lines += Array(repeating: StyledLine(), count: rows - 1 - shown.count)
        for bubble in shown {
            var line = StyledLine("› ", style: .dim)
            line.append(bubble)
            lines.append(line)
        }
        return lines
    }

    /// `left` at the start of a line `width` wide and `right` at its end; `left` is cut short to make room.
    static func spread(_ left: StyledLine, _ right: StyledLine, width: Int) -> StyledLine {
        guard right.width < width else { return right.fitted(to: width) }
        var line = left.fitted(to: width - right.width - 1)
        line.append(" ")
        line.append(right)
        return line
    }

    // MARK: - Status and input

    /// The status lines: what the session said, in its tones; when there is too much, the last row says how
    /// many lines it leaves out.
    static func statusLines(_ status: [StatusLine], rows: Int, columns: Int) -> [StyledLine] {
        guard rows > 0 else { return [] }
        var lines = status.prefix(rows).map { StyledLine($0.text, style: $0.tone.style) }
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
