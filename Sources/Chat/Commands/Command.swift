/// A line of input, understood: a message to send or a command to run.
enum Command: Equatable {
    /// Sends a message to every open screen.
    case send(ChatMessage)
    /// Opens a new screen of a kind.
    case open(ScreenKind)
    /// Closes a screen of a kind: the one numbered `number`, or the most recently opened one if it is nil.
    case close(ScreenKind, number: Int?)
    /// Lists the subscribed screens.
    case screens
    /// Asks every screen for its unread count, and adds them up.
    case unread
    /// Sends that many messages from four threads at once.
    case burst(Int)
    /// Turns the multicast's trace on, or off if it is on.
    case trace
    /// Lists the commands.
    case help
    /// Ends the session.
    case quit

    /// The counts `/burst` takes: enough to make threads collide, few enough to finish at once.
    static let burstCounts = 1...10_000

    /// The commands as a user types them, for messages that list the choices.
    static let choices = "/open, /close, /screens, /unread, /burst, /trace, /help, /quit"

    /// Reads a line of input.
    ///
    /// A line that starts with `/` is a command; any other line is a message, sent in the conversation that
    /// an `@name` prefix names, or in `general`. Command and screen names may be in any case.
    ///
    /// ```swift
    /// try Command.parse("/close chats#2")  // .close(.chats, number: 2)
    /// try Command.parse("@alice hi")       // .send(ChatMessage(conversation: "alice", text: "hi"))
    /// try Command.parse("   ")             // nil
    /// ```
    ///
    /// - Parameter line: A line, without its newline.
    /// - Returns: The command, or nil for a blank line.
    /// - Throws: A ``CommandError`` that says what the line should look like.
    static func parse(_ line: String) throws(CommandError) -> Command? {
        let line = line.trimmingWhitespace()
        guard !line.isEmpty else { return nil }
        guard line.hasPrefix("/") else { return try .send(message(line)) }

        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        let name = words[0].lowercased()
        let arguments = Array(words.dropFirst())
        switch name {
        case "/open":
            return .open(try kind(of: screen(for: name, in: arguments), for: name))
        case "/close":
            let screen = try screen(for: name, in: arguments)
            let parts = screen.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let kind = try kind(of: String(parts[0]), for: name)
            guard parts.count == 2 else { return .close(kind, number: nil) }
            guard let number = Int(parts[1]), number > 0 else {
                throw .unknownScreen(screen, command: name)
            }
            return .close(kind, number: number)
        case "/burst":
            guard arguments.count == 1, let count = Int(arguments[0]), burstCounts.contains(count) else {
                throw .badBurstCount(arguments.isEmpty ? nil : arguments.joined(separator: " "))
            }
            return .burst(count)
        case "/screens", "/unread", "/trace", "/help", "/quit":
            guard arguments.isEmpty else { throw .unexpectedArgument(command: name) }
            return switch name {
            case "/screens": .screens
            case "/unread": .unread
            case "/trace": .trace
            case "/help": .help
            default: .quit
            }
        default:
            throw .unknownCommand(words[0])
        }
    }

    /// The message a line that is not a command sends: `@name text` goes to conversation `name`.
    private static func message(_ line: String) throws(CommandError) -> ChatMessage {
        guard line.hasPrefix("@") else {
            return ChatMessage(conversation: ChatMessage.defaultConversation, text: line)
        }
        let parts = line.dropFirst().split(maxSplits: 1, whereSeparator: \.isWhitespace)
        guard parts.count == 2 else { throw .emptyMessage }
        return ChatMessage(conversation: String(parts[0]), text: String(parts[1]).trimmingWhitespace())
    }

    /// The one argument of `/open` or `/close`, lowercased.
    private static func screen(for command: String, in arguments: [String]) throws(CommandError) -> String {
        guard let screen = arguments.first else { throw .missingScreen(command: command) }
        guard arguments.count == 1 else { throw .unexpectedArgument(command: command) }
        return screen.lowercased()
    }

    /// The kind a screen name names.
    private static func kind(of screen: String, for command: String) throws(CommandError) -> ScreenKind {
        guard let kind = ScreenKind(rawValue: screen) else { throw .unknownScreen(screen, command: command) }
        return kind
    }
}

extension String {
    /// The string without the whitespace at its ends.
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
