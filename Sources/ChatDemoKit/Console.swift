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
/// A console may be used from any thread; each line is written whole. The full-screen view gives a console
/// a sink that takes each line with its ``Tone``, and draws the colors itself.
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

    /// What a line is about, which decides its color.
    public enum Tone: Sendable, Hashable {
        /// Anything else: greetings, answers to commands.
        case plain
        /// A screen subscribed: orange, like the seed's "Delegate has been subscribed".
        case subscribed
        /// A screen received a message: green, like the seed's "has received message".
        case received
        /// The input was wrong: red.
        case error

        /// How a line of this tone is drawn when colors are on.
        public var style: TextStyle {
            switch self {
            case .plain: .plain
            case .subscribed: .orange
            case .received: .green
            case .error: .red
            }
        }
    }

    /// The sink, locked so that lines written from several threads at once come out one after another.
    private let sink: Locked<@Sendable (String, Tone) -> Void>

    /// Creates a console that hands each finished line, without a newline, to `sink`, colored by its tone
    /// when `style` is ``Style/colored``.
    ///
    /// - Parameters:
    ///   - style: How lines are decorated.
    ///   - sink: Receives each line; calls to it never overlap, so it need not be thread-safe itself.
    public convenience init(style: Style, sink: @escaping @Sendable (String) -> Void) {
        self.init { text, tone in
            sink(style == .colored ? tone.style.painted(text) : text)
        }
    }

    /// Creates a console that hands each finished line, without a newline and undecorated, to `sink` with
    /// its tone.
    ///
    /// - Parameter sink: Receives each line and its tone; calls to it never overlap, so it need not be
    ///   thread-safe itself.
    public init(sink: @escaping @Sendable (_ text: String, _ tone: Tone) -> Void) {
        self.sink = Locked(sink)
    }

    /// Writes a line as it is.
    public func line(_ text: String) {
        write(text, .plain)
    }

    /// Writes a line about a screen that subscribed.
    func subscribed(_ text: String) {
        write(text, .subscribed)
    }

    /// Writes a line about a message a screen received.
    func received(_ text: String) {
        write(text, .received)
    }

    /// Writes a line that explains what went wrong with the input.
    func error(_ text: String) {
        write("error: " + text, .error)
    }

    /// Writes an input line back, so that a transcript of piped input reads like a typed session.
    func echo(_ input: String) {
        write("> " + input, .plain)
    }

    private func write(_ text: String, _ tone: Tone) {
        sink.withLock { write in write(text, tone) }
    }
}
