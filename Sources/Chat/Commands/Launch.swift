/// What the program was asked to do on its command line.
package enum Launch: Equatable, Sendable {
    /// A session on standard input: typed on a terminal, or reading piped lines.
    ///
    /// `plain` is whether `--plain` asked for one line per event even on a terminal.
    case session(plain: Bool)
    /// A session that plays ``Launch/demoScript`` and ends; `plain` as for ``session(plain:)``.
    case demo(plain: Bool)
    /// Print ``Launch/usage`` and end.
    case help

    /// Reads the command-line arguments, without the program's name; `--demo` and `--plain` may come in
    /// either order.
    ///
    /// - Returns: What to do, or nil if the arguments make no sense; then print ``usage`` and fail.
    package init?(arguments: [String]) {
        if arguments == ["--help"] || arguments == ["-h"] {
            self = .help
            return
        }
        let options = Set(arguments)
        guard options.count == arguments.count, options.isSubset(of: ["--demo", "--plain"]) else { return nil }
        let plain = options.contains("--plain")
        self = options.contains("--demo") ? .demo(plain: plain) : .session(plain: plain)
    }

    /// Whether the session opens the full-screen view: only when standard input and output are both a
    /// terminal, one that can draw it, and `--plain` was not given.
    ///
    /// - Parameters:
    ///   - inputIsTerminal: Whether standard input is a terminal.
    ///   - outputIsTerminal: Whether standard output is a terminal.
    ///   - environment: The process environment; a `TERM` of `dumb` cannot draw the view.
    package func showsFullScreen(inputIsTerminal: Bool, outputIsTerminal: Bool, environment: [String: String])
        -> Bool
    {
        switch self {
        case .session(plain: false), .demo(plain: false):
            inputIsTerminal && outputIsTerminal && environment["TERM"] != "dumb"
        case .session, .demo, .help:
            false
        }
    }

    /// How to run the program.
    package static let usage = """
        usage: ChatDemo [--demo] [--plain] | --help
          (no option)  a chat session: full screen on a terminal, one line per event when piped
          --demo       play a built-in session and exit
          --plain      one line per event, even on a terminal
          --help       show this text
        """

    /// The built-in session: open, send with the trace on, close, send, reopen, burst, unread.
    package static let demoScript = [
        "hello, screens",
        "/trace",
        "/open chats",
        "@alice two chat lists, one message",
        "/trace",
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
