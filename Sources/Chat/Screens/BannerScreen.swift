import TerminalKit

/// The banner: a one-line notification for each message.
final class BannerScreen: MessageDelegate {
    let name: String
    private let console: Console
    private let state = Locked(State())

    /// What the banner shows; changed by whichever thread delivers a message.
    private struct State {
        var text: String?
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
        let text = "[\(message.conversation)] \(message.text)"
        state.withLock { state in
            state.text = text
            state.received += 1
        }
        guard !message.isSilent else { return }
        console.received("\(name) received \"\(message.text)\" · shows \(text)")
    }

    /// The notification on show: the latest message, or nil before the first.
    var text: String? {
        state.withLock { $0.text }
    }

    /// None: a banner only announces messages; the chat list keeps them unread.
    var unreadCount: Int { 0 }

    var receivedCount: Int {
        state.withLock { $0.received }
    }

    var snapshot: ScreenSnapshot {
        let state = state.withLock { $0 }
        return ScreenSnapshot(name: name, received: state.received, content: .banner(state.text))
    }
}
