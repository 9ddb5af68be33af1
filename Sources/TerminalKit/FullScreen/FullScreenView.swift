/// What the full-screen view shows besides its panes: the line being typed and what the program said about
/// the last line submitted. Any thread may use it.
///
/// The program's main thread types keys into it and runs the lines it submits; the program writes through its
/// ``console()`` from whichever thread it is on; one drawing thread waits on ``redraws`` and draws
/// ``frame(panes:size:)``:
///
/// ```swift
/// let view = FullScreenView(placeholder: "nothing to show yet")
/// let console = view.console()  // what is written to it becomes the status lines
/// Thread.detachNewThread {
///     var encoder = FrameEncoder(colored: true)
///     while view.redraws.next() {
///         Terminal.write(encoder.update(to: view.frame(panes: currentPanes(), size: Terminal.size())))
///     }
/// }
/// ```
// Sendable because its state is in `Locked` boxes and `RedrawRequests` is Sendable.
package final class FullScreenView: Sendable {
    /// Asked for whenever something the view shows changes.
    package let redraws = RedrawRequests()

    /// What the view shows where the panes go when there is none.
    package let placeholder: String

    private let input = Locked(InputLine())
    private let status = Locked([StatusLine]())

    /// Creates a view with an empty input line and nothing said.
    ///
    /// - Parameter placeholder: What to show where the panes go when there is none, such as how to open one.
    package init(placeholder: String) {
        self.placeholder = placeholder
    }

    /// A console whose lines become the status lines.
    package func console() -> Console {
        Console { [status, redraws] text, style in
            status.withLock { $0.append(StatusLine(text, style: style)) }
            redraws.request()
        }
    }

    /// Applies a key to the input line.
    ///
    /// Submitting a line clears the status lines: what the program says next is about that line.
    package func type(_ key: Key) -> InputLine.Outcome {
        let outcome = input.withLock { $0.apply(key) }
        if case .submitted = outcome {
            status.withLock { $0.removeAll() }
        }
        redraws.request()
        return outcome
    }

    /// The status lines: what the program said since the last line was submitted.
    package var statusLines: [StatusLine] {
        status.withLock { $0 }
    }

    /// What is typed on the input line.
    package var inputText: String {
        input.withLock { $0.text }
    }

    /// The frame for `panes` on a terminal of `size`, with the input line and status lines as they are now.
    package func frame(panes: [some Pane], size: TerminalSize) -> Frame {
        Layout.frame(panes: panes, placeholder: placeholder, status: statusLines, input: inputText, size: size)
    }
}
