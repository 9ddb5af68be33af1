import Multicast

typealias ChatMessage = String

@MainActor
protocol MessageDelegate: AnyObject {
    func newMessageReceived(message: ChatMessage)
}

@MainActor
enum Chat {
    static let messages = MulticastDelegate<any MessageDelegate>()
}

@MainActor
final class ChatListScreen: MessageDelegate {
    init() {
        Chat.messages.add(self)  // a second ChatListScreen is a second delegate
    }

    func newMessageReceived(message: ChatMessage) { print("badge +1 for", message) }
}

@MainActor
func send(_ text: ChatMessage) {
    Chat.messages.call { $0.newMessageReceived(message: text) }
}
