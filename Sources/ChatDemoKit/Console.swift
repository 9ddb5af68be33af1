/// Where the demo writes its lines, colored or not.
///
/// Everything the demo shows goes through a console, so the program can write to standard output while the
/// tests collect the lines:
///
/// ```swift
/// let console = Console(style: .plain) { line in print(line) }
/// console.received("chats#1 received \"hi\"")
/// ```
///
/// A console may be used from any thread; each line is written whole.
public final class Console: Sendable {
    /// How lines are decorated.
    public enum Style: Sendable, Equatable {
        /// Plain text, for pipes, files and `NO_COLOR`.
        case plain
        /// ANSI colors, as the seed app colored its labels: orange for "subscribed", green for "received".
        case colored

        /// The style for an output: colored only on a terminal, and only when `NO_COLOR` is not set.
        ///
        /// As <https://no-color.org> asks, a `NO_COLOR` that is set to an empty string does not count.
        ///
        /// - Parameters:
        ///   - isTerminal: Whether the output is a terminal.
        ///   - environment: The process environment.
        public static func forOutput(isTerminal: Bool, environment: [String: String]) -> Style {
            let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return isTerminal && !noColor ? .colored : .plain
        }
    }

    /// How this console decorates lines.
    public let style: Style

    /// The sink, locked so that lines written from several threads at once come out one after another.
    private let sink: Locked<@Sendable (String) -> Void>

    /// Creates a console that hands each finished line, without a newline, to `sink`.
    ///
    /// - Parameters:
    ///   - style: How lines are decorated.
    ///   - sink: Receives each line; calls to it never overlap, so it need not be thread-safe itself.
    public init(style: Style, sink: @escaping @Sendable (String) -> Void) {
        self.style = style
        self.sink = Locked(sink)
    }

    /// Writes a line as it is.
    public func line(_ text: String) {
        sink.withLock { write in write(text) }
    }

    /// Writes a line about a screen that subscribed: orange, like the seed's "Delegate has been subscribed".
    func subscribed(_ text: String) {
        line(painted(text, Self.orange))
    }

    /// Writes a line about a message a screen received: green, like the seed's "has received message".
    func received(_ text: String) {
        line(painted(text, Self.green))
    }

    /// Writes a line that explains what went wrong with the input.
    func error(_ text: String) {
        line(painted("error: " + text, Self.red))
    }

    /// Writes an input line back, so that a transcript of piped input reads like a typed session.
    func echo(_ input: String) {
        line("> " + input)
    }

    private func painted(_ text: String, _ color: String) -> String {
        switch style {
        case .plain: text
        case .colored: color + text + Self.reset
        }
    }

    private static let orange = "\u{1B}[38;5;208m"
    private static let green = "\u{1B}[32m"
    private static let red = "\u{1B}[31m"
    private static let reset = "\u{1B}[0m"
}
