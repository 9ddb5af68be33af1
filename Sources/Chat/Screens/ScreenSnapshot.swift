/// What a screen shows at one moment, copied under the screen's lock: what its pane draws.
///
/// The full-screen view asks every subscribed screen for one, through the multicast, then draws from the
/// copies; a screen may receive messages from other threads meanwhile.
package struct ScreenSnapshot: Sendable, Hashable {
    /// A conversation in the chat list.
    package struct Conversation: Sendable, Hashable {
        /// The conversation's name, such as `general`.
        package var name: String
        /// How many of its messages are unread: its badge.
        package var unread: Int
        /// Its latest message.
        package var latest: String

        /// Creates a chat list entry.
        package init(name: String, unread: Int, latest: String) {
            self.name = name
            self.unread = unread
            self.latest = latest
        }
    }

    /// What a screen shows, by kind.
    package enum Content: Sendable, Hashable {
        /// A chat list: its conversations, the most recently active first.
        case chats([Conversation])
        /// A conversation: the open one, the conversation of the latest message, and its last bubbles, oldest
        /// first; nil and none before the first message.
        case conversation(String?, bubbles: [String])
        /// A banner: the latest message, or nil before the first.
        case banner(String?)
    }

    /// The screen's name, such as `chats#1`: its pane's title.
    package var name: String

    /// How many messages the screen has received since it opened.
    package var received: Int

    /// What the screen shows.
    package var content: Content

    /// Creates a snapshot.
    package init(name: String, received: Int, content: Content) {
        self.name = name
        self.received = received
        self.content = content
    }

    /// The most bubbles a conversation's snapshot holds: more than a pane of any terminal shows.
    static let bubbleLimit = 200
}
