import TerminalKit

/// The conversation: shows each message as a bubble.
final class ConversationScreen: MessageDelegate {
    let name: String
    private let console: Console
    private let shown = Locked([ChatMessage]())

    /// Opens the screen; it prints through `console`.
    init(name: String, console: Console) {
        self.name = name
        self.console = console
    }

    deinit {
        console.line("\(name) left (released; no remove call)")
    }

    func didReceive(_ message: ChatMessage) {
        let number = shown.withLock { bubbles in
            bubbles.append(message)
            return bubbles.count
        }
        guard !message.isSilent else { return }
        console.received("\(name) received \"\(message.text)\" · bubble \(number) in \(message.conversation)")
    }

    /// The messages shown so far, as bubbles, oldest first.
    var bubbles: [ChatMessage] {
        shown.withLock { $0 }
    }

    /// None: the conversation shows every message as it arrives, so each one is read.
    var unreadCount: Int { 0 }

    var receivedCount: Int {
        shown.withLock { $0.count }
    }

    /// The open conversation is the one of the latest message; the snapshot holds its last bubbles.
    var snapshot: ScreenSnapshot {
        // Only the bubbles a pane may show are copied, under the lock, so that drawing never copies thousands.
        let (received, open, bubbles) = shown.withLock { bubbles in
            let open = bubbles.last?.conversation
            var shown: [String] = []
            for bubble in bubbles.reversed() where bubble.conversation == open {
                shown.append(bubble.text)
                if shown.count == ScreenSnapshot.bubbleLimit { break }
            }
            return (bubbles.count, open, Array(shown.reversed()))
        }
        return ScreenSnapshot(name: name, received: received, content: .conversation(open, bubbles: bubbles))
    }
}
