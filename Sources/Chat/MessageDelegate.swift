/// What every screen of the chat app wants to hear about: the one protocol of the demo's multicast.
///
/// The screens register with one `MulticastDelegate<any MessageDelegate>`, which holds them weakly and calls
/// them on the sender's thread, in the order they opened. A screen that closes is released, and the multicast
/// stops calling it without being told.
protocol MessageDelegate: AnyObject, Sendable {
    /// The name the screen goes by, such as `chats#2`: its kind and the number of its instance.
    var name: String { get }

    /// Takes in a new message, and prints how unless the message is silent.
    ///
    /// Called on the sender's thread, possibly from several threads at once.
    func didReceive(_ message: ChatMessage)

    /// How many messages the screen shows as not read yet.
    var unreadCount: Int { get }

    /// How many messages the screen has received since it opened.
    var receivedCount: Int { get }

    /// What the screen shows now, copied under its lock, for the full-screen view to draw.
    var snapshot: ScreenSnapshot { get }
}
