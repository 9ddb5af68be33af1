/// Where a program writes its lines, colored or not.
///
/// Everything the program shows goes through a console, so that it can write to standard output while the
/// tests collect the lines:
///
/// ```swift
/// let console = Console(style: .colored) { line in print(line) }
/// console.line("saved", style: .green)  // green on a terminal; "saved" with `.plain`
/// ```
///
/// A console may be used from any thread; each line is written whole. The full-screen view gives a console
/// a sink that takes each line with its ``TextStyle``, and draws the colors itself.
package final class Console: Sendable {
    /// How lines are decorated.
    package enum Style: Sendable, Equatable {
        /// Plain text, for pipes, files and `NO_COLOR`.
        case plain
        /// ANSI colors: each line in its ``TextStyle``.
        case colored

        /// The style for an output: colored only on a terminal, and only when `NO_COLOR` is not set.
        ///
        /// As <https://no-color.org> asks, a `NO_COLOR` that is set to an empty string does not count.
        ///
        /// - Parameters:
        ///   - isTerminal: Whether the output is a terminal.
        ///   - environment: The process environment.
        package static func forOutput(isTerminal: Bool, environment: [String: String]) -> Style {
            let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return isTerminal && !noColor ? .colored : .plain
        }
    }

    /// The sink, locked so that lines written from several threads at once come out one after another.
    private let sink: Locked<@Sendable (String, TextStyle) -> Void>

    /// Creates a console that hands each finished line, without a newline, to `sink`, in the line's style
    /// when `style` is ``Style/colored``.
    ///
    /// - Parameters:
    ///   - style: How lines are decorated.
    ///   - sink: Receives each line; calls to it never overlap, so it need not be thread-safe itself.
    package convenience init(style: Style, sink: @escaping @Sendable (String) -> Void) {
        self.init { text, textStyle in
            sink(style == .colored ? textStyle.painted(text) : text)
        }
    }

    /// Creates a console that hands each finished line, without a newline and undecorated, to `sink` with
    /// its style.
    ///
    /// - Parameter sink: Receives each line and its style; calls to it never overlap, so it need not be
    ///   thread-safe itself.
    package init(sink: @escaping @Sendable (_ text: String, _ style: TextStyle) -> Void) {
        self.sink = Locked(sink)
    }

    /// Writes a line.
    ///
    /// - Parameters:
    ///   - text: The line, without a newline.
    ///   - style: How the line is drawn when colors are on.
    package func line(_ text: String, style: TextStyle = .plain) {
        sink.withLock { write in write(text, style) }
    }
}
