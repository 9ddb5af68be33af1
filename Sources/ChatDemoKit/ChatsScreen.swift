/// The chat list: keeps an unread badge for each conversation.
final class ChatsScreen: MessageDelegate {
    let name: String
    private let console: Console
    private let state = Locked(State())

    /// What the screen has seen; changed by whichever thread delivers a message.
    private struct State {
        var badges: [String: Int] = [:]
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
        let badge = state.withLock { state in
            state.received += 1
            state.badges[message.conversation, default: 0] += 1
            return state.badges[message.conversation, default: 0]
        }
        guard !message.isSilent else { return }
        console.received("\(name) received \"\(message.text)\" · badge \(message.conversation): \(badge)")
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
}
