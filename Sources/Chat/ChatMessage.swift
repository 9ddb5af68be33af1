/// A message of the chat: what someone typed, in which conversation.
struct ChatMessage: Sendable, Hashable {
    /// The conversation the message belongs to, such as `general`.
    var conversation: String

    /// What the message says.
    var text: String

    /// Whether screens should take the message in without printing it.
    ///
    /// `/burst` sends thousands of messages; the screens count them, then the session prints one summary.
    var isSilent = false

    /// The conversation a message goes to when the line does not name one with `@name`.
    static let defaultConversation = "general"
}
