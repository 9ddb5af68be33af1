import TerminalKit

/// The kinds of screen the demo can open; several of one kind may be open at once.
enum ScreenKind: String, CaseIterable, Sendable {
    /// The chat list, with an unread badge per conversation: ``ChatsScreen``.
    case chats
    /// The messages of the chat, one bubble each: ``ConversationScreen``.
    case conversation
    /// A one-line notification per message: ``BannerScreen``.
    case banner

    /// Opens a new screen of this kind.
    ///
    /// - Parameters:
    ///   - number: Which instance of its kind the screen is, from 1; it names the screen, as in `chats#2`.
    ///   - console: Where the screen prints.
    func makeScreen(number: Int, console: Console) -> any MessageDelegate {
        let name = "\(rawValue)#\(number)"
        return switch self {
        case .chats: ChatsScreen(name: name, console: console)
        case .conversation: ConversationScreen(name: name, console: console)
        case .banner: BannerScreen(name: name, console: console)
        }
    }

    /// The kinds as a user types them, for messages that list the choices: `chats, conversation, banner`.
    static let choices = allCases.map(\.rawValue).joined(separator: ", ")
}
