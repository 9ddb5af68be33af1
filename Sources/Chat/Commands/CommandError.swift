/// What is wrong with a line of input; its description is a one-line answer listing the valid choices.
enum CommandError: Error, Equatable, CustomStringConvertible {
    /// A `/word` that is not a command.
    case unknownCommand(String)
    /// `/open` or `/close` without a screen.
    case missingScreen(command: String)
    /// `/open` or `/close` with a screen that is no kind of screen, or an instance number that is no number.
    case unknownScreen(String, command: String)
    /// `/burst` without a count, or with one out of ``Command/burstCounts``; holds what was given.
    case badBurstCount(String?)
    /// A command given more arguments than it takes.
    case unexpectedArgument(command: String)
    /// `@name` without a message after it.
    case emptyMessage

    var description: String {
        switch self {
        case .unknownCommand(let name):
            "unknown command \(name); commands: \(Command.choices)"
        case .missingScreen(let command):
            "\(command) needs a screen: \(ScreenKind.choices)\(command == "/close" ? ", or a name like chats#1" : "")"
        case .unknownScreen(let screen, let command) where command == "/close":
            "no screen \"\(screen)\"; close one of: \(ScreenKind.choices), or a name like chats#1"
        case .unknownScreen(let screen, _):
            "no screen \"\(screen)\"; screens: \(ScreenKind.choices)"
        case .badBurstCount(let given):
            "/burst takes a number of messages from \(Command.burstCounts.lowerBound) to "
                + "\(Command.burstCounts.upperBound), as in /burst 100\(given.map { " (got \"\($0)\")" } ?? "")"
        case .unexpectedArgument(let command) where command == "/open" || command == "/close":
            "\(command) takes one screen, as in \(command) chats"
        case .unexpectedArgument(let command):
            "\(command) takes no argument; /help lists the commands"
        case .emptyMessage:
            "a message to a conversation reads @name text, as in @alice hello"
        }
    }
}
