/// What the program was asked to do on its command line.
public enum Launch: Equatable, Sendable {
    /// A session on standard input: interactive on a terminal, or reading piped lines.
    case session
    /// A session that plays ``Launch/demoScript`` and ends.
    case demo
    /// Print ``Launch/usage`` and end.
    case help

    /// Reads the command-line arguments, without the program's name.
    ///
    /// - Returns: What to do, or nil if the arguments make no sense; then print ``usage`` and fail.
    public init?(arguments: [String]) {
        switch arguments {
        case []: self = .session
        case ["--demo"]: self = .demo
        case ["--help"], ["-h"]: self = .help
        default: return nil
        }
    }

    /// How to run the program.
    public static let usage = """
        usage: ChatDemo [--demo | --help]
          (no option)  a chat session on standard input: type lines on a terminal, or pipe them in
          --demo       play a built-in session and exit
          --help       show this text
        """

    /// The built-in session: open, send, close, send, reopen, burst, unread.
    public static let demoScript = [
        "hello, screens",
        "/open chats",
        "@alice two chat lists, one message",
        "/screens",
        "/close banner",
        "no banner for this one",
        "/open banner",
        "the banner is back",
        "/burst 1000",
        "/unread",
        "/close chats#1",
        "/screens",
        "/quit",
    ]
}
