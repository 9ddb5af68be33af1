import TerminalKit

/// A screen's pane on the full-screen view: its name in the top border, what it shows, and its counters.
///
/// ```text
/// ┌ chats#1 ──────────────┐┌ conversation#1 ───────┐┌ banner#1 ─────────────┐
/// │ general           (1) ││ #general              ││  [general] hi         │
/// │   hi                  ││                       ││                       │
/// │                       ││ › hi                  ││                       │
/// │ 1 unread · 1 received ││ 1 received            ││ 1 received            │
/// └───────────────────────┘└───────────────────────┘└───────────────────────┘
/// ```
extension ScreenSnapshot: Pane {
    /// What the full-screen view shows where the panes go when no screen is open.
    package static let placeholder = "no screen is open; /open one of: \(ScreenKind.choices)"

    /// The screen's name, such as `chats#1`.
    package var title: String { name }

    /// The screen's counters: what it received, and for a chat list what is unread.
    package var footer: String {
        switch content {
        case .chats(let conversations):
            let unread = conversations.reduce(0) { $0 + $1.unread }
            return "\(unread) unread · \(received) received"
        case .conversation, .banner:
            return "\(received) received"
        }
    }

    /// What the screen shows, by kind; "no message yet" before the first.
    package func lines(width: Int, rows: Int) -> [StyledLine] {
        let body =
            switch content {
            case .chats(let conversations): Self.chats(conversations, rows: rows, width: width)
            case .conversation(let open, let bubbles): Self.conversation(open, bubbles: bubbles, rows: rows)
            case .banner(let text): text.map { [StyledLine(" \($0) ", style: .reverse)] } ?? []
            }
        return body.isEmpty ? [StyledLine("no message yet", style: .dim)] : body
    }

    /// The chat list: two lines per conversation, the most recent first: its name and unread badge, then its
    /// latest message.
    private static func chats(_ conversations: [Conversation], rows: Int, width: Int) -> [StyledLine] {
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
    private static func conversation(_ open: String?, bubbles: [String], rows: Int) -> [StyledLine] {
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
    private static func spread(_ left: StyledLine, _ right: StyledLine, width: Int) -> StyledLine {
        guard right.width < width else { return right.fitted(to: width) }
        var line = left.fitted(to: width - right.width - 1)
        line.append(" ")
        line.append(right)
        return line
    }
}
