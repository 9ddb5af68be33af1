import TerminalKit

/// The chat list: keeps an unread badge for each conversation.
final class ChatsScreen: MessageDelegate {
    let name: String
    private let console: Console
    private let state = Locked(State())

    /// What the screen has seen; changed by whichever thread delivers a message.
    private struct State {
        var badges: [String: Int] = [:]
        /// The latest message of each conversation.
        var latest: [String: String] = [:]
        /// The conversations, the most recently active first.
        var order: [String] = []
        var received = 0
    }

    /// Opens the screen; it prints through `console`.
    init(name: String, console: Console) {
        self.name = name
        self.console = console
    }

    deinit {
        console.line("\(name) left (released; no remove call)")
    }

    func didReceive(_ message: ChatMessage) {
        let conversation = message.conversation
        let badge = state.withLock { state in
            state.received += 1
            state.badges[conversation, default: 0] += 1
            state.latest[conversation] = message.text
            if state.order.first != conversation {
                state.order.removeAll { $0 == conversation }
                state.order.insert(conversation, at: 0)
            }
            return state.badges[conversation, default: 0]
        }
        guard !message.isSilent else { return }
        console.received("\(name) received \"\(message.text)\" · badge \(conversation): \(badge)")
    }

    /// The badge of each conversation that has unread messages.
    var badges: [String: Int] {
        state.withLock { $0.badges }
    }

    /// Every message the chat list has received is unread: the sum of its badges.
    var unreadCount: Int {
        state.withLock { $0.badges.values.reduce(0, +) }
    }

    var receivedCount: Int {
        state.withLock { $0.received }
    }

    var snapshot: ScreenSnapshot {
        let state = state.withLock { $0 }
        let conversations = state.order.map { name in
            ScreenSnapshot.Conversation(
                name: name, unread: state.badges[name, default: 0], latest: state.latest[name, default: ""])
        }
        return ScreenSnapshot(name: name, received: state.received, content: .chats(conversations))
    }
}
