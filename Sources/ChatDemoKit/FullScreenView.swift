import Dispatch

/// A line the session said, with its tone: a status line of the full-screen view.
public struct StatusLine: Sendable, Hashable {
    /// What was said.
    public var text: String
    /// What it is about, which decides its color.
    public var tone: Console.Tone

    /// Creates a status line.
    public init(_ text: String, tone: Console.Tone = .plain) {
        self.text = text
        self.tone = tone
    }
}

/// What the full-screen view shows besides the screens: the line being typed and what the session said
/// about the last line submitted. Any thread may use it.
///
/// The program's main thread types keys into it and runs the lines it submits; the session writes through
/// its ``console()`` from whichever thread it is on; one drawing thread waits on ``redraws`` and draws
/// ``frame(screens:size:)``:
///
/// ```swift
/// let view = FullScreenView()
/// let session = ChatSession(console: view.console(), afterDelivery: view.redraws.request)
/// let screens = session.screenStates
/// Thread.detachNewThread {
///     while view.redraws.next() { draw(view.frame(screens: screens.snapshot(), size: size())) }
/// }
/// ```
// Sendable because its state is in `Locked` boxes and `RedrawRequests` is Sendable.
public final class FullScreenView: Sendable {
    /// Asked for whenever something the view shows changes.
    public let redraws = RedrawRequests()

    private let input = Locked(InputLine())
    private let status = Locked([StatusLine]())

    /// Creates a view with an empty input line and nothing said.
    public init() {}

    /// A console whose lines become the status lines.
    public func console() -> Console {
        Console { [status, redraws] text, tone in
            status.withLock { $0.append(StatusLine(text, tone: tone)) }
            redraws.request()
        }
    }

    /// Applies a key to the input line.
    ///
    /// Submitting a line clears the status lines: what the session says next is about that line.
    public func type(_ key: Key) -> InputLine.Outcome {
        let outcome = input.withLock { $0.apply(key) }
        if case .submitted = outcome {
            status.withLock { $0.removeAll() }
        }
        redraws.request()
        return outcome
    }

    /// The status lines: what the session said since the last line was submitted.
    public var statusLines: [StatusLine] {
        status.withLock { $0 }
    }

    /// What is typed on the input line.
    public var inputText: String {
        input.withLock { $0.text }
    }

    /// The frame for `screens` on a terminal of `size`, with the input line and status lines as they are now.
    public func frame(screens: [ScreenSnapshot], size: TerminalSize) -> Frame {
        Layout.frame(screens: screens, status: statusLines, input: inputText, size: size)
    }
}

/// Requests to redraw, from any thread, for the one thread that draws: requests made before it draws again
/// make one redraw, and a request made while it draws makes one more.
///
/// ```swift
/// while redraws.next() {        // waits for a request
///     draw()
///     Thread.sleep(forTimeInterval: 0.03)  // at most ~33 frames a second; requests meanwhile wait
/// }
/// ```
// Sendable because `state` is only used under its lock and `DispatchSemaphore` may be signaled from any thread.
public final class RedrawRequests: Sendable {
    private struct State {
        var isRequested = false
        var isStopped = false
    }

    private let state = Locked(State())

    /// Signaled once per request that finds none waiting, and once by `stop()`.
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Creates a request list with nothing requested.
    public init() {}

    /// Asks for a redraw; does nothing if one is asked for already, or after ``stop()``.
    @Sendable public func request() {
        let wakes = state.withLock { state in
            defer { state.isRequested = true }
            return !state.isRequested && !state.isStopped
        }
        if wakes { wakeUp.signal() }
    }

    /// Waits for a request, and takes it.
    ///
    /// - Returns: `true` to draw; `false` once ``stop()`` was called: the drawing thread should end.
    public func next() -> Bool {
        wakeUp.wait()
        let goesOn = state.withLock { state in
            state.isRequested = false
            return !state.isStopped
        }
        if !goesOn { wakeUp.signal() }  // for the next call
        return goesOn
    }

    /// Ends the drawing: ``next()`` returns `false` from now on.
    public func stop() {
        state.withLock { $0.isStopped = true }
        wakeUp.signal()
    }
}
