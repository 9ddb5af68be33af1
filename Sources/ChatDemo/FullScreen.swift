import ChatDemoKit
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The session on the full-screen view: a pane per open screen, updating live, and an input line.
///
/// Three kinds of thread touch it:
/// - the main thread reads keys, edits the input line and runs each submitted line, as the plain mode does;
/// - one drawing thread waits for redraw requests and draws a frame, at most every 30 ms, so that many
///   changes in a row (a burst) make one frame each 30 ms instead of one each;
/// - `/burst`'s four threads deliver messages to the screens and ask for a redraw after each.
///
/// The drawing thread reads the screens through the multicast (each screen copies its state under its own
/// lock) and the input and status lines through ``FullScreenView``, so it never races the others, and it
/// sends no message.
enum FullScreen {
    /// The shortest time between two frames, in seconds.
    static let frameInterval = 0.03

    /// How long `/burst` takes on the full screen, in seconds, so that its counters are seen climbing.
    static let burstSeconds = 1.5

    /// Runs a session on the full-screen view until the input ends, `/quit`, or Control-C.
    ///
    /// - Parameters:
    ///   - demo: Whether to play ``Launch/demoScript``, typed in slowly, instead of reading the keyboard.
    ///   - colored: Whether to draw in colors.
    /// - Returns: The exit status, 130 after Control-C; nil if the terminal could not be put in raw mode, and
    ///   nothing ran.
    static func run(demo: Bool, colored: Bool) -> Int32? {
        guard let terminal = Terminal.open() else { return nil }
        let view = FullScreenView()
        let session = ChatSession(
            console: view.console(), burstSeconds: burstSeconds, afterDelivery: view.redraws.request)

        let screens = session.screenStates
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var encoder = FrameEncoder(colored: colored)
            while view.redraws.next() {
                let frame = view.frame(screens: screens.snapshot(), size: Terminal.size())
                Terminal.write(encoder.update(to: frame))
                Thread.sleep(forTimeInterval: frameInterval)
            }
            stopped.signal()
        }

        // A resize redraws the whole screen: the drawing thread reads the size anew for each frame.
        signal(SIGWINCH, SIG_IGN)  // the dispatch source receives it instead
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        resize.setEventHandler { view.redraws.request() }
        resize.resume()

        let keyboard = Keyboard(terminal: terminal, view: view)
        session.start()
        session.play(demo ? keyboard.typing(Launch.demoScript) : keyboard.lines(), echo: false)

        resize.cancel()
        view.redraws.stop()
        stopped.wait()
        terminal.close()
        return keyboard.wasInterrupted ? 130 : 0
    }
}

/// The keys typed on the terminal, as lines for the session: keys edit the view's input line, and Return
/// submits it. Used from the main thread only.
final class Keyboard {
    private let terminal: Terminal
    private let view: FullScreenView
    private var decoder = KeyDecoder()

    /// Keys read and not handled yet, oldest first.
    private var keys: [Key] = []

    /// Whether Control-C ended the lines.
    private(set) var wasInterrupted = false

    /// Creates a keyboard that reads from `terminal` and types into `view`.
    init(terminal: Terminal, view: FullScreenView) {
        self.terminal = terminal
        self.view = view
    }

    /// The lines typed, each as the session asks for it; they end with Control-C, Control-D on an empty line,
    /// or the end of the input.
    func lines() -> AnyIterator<String> {
        AnyIterator { [self] in
            while true {
                while !keys.isEmpty {
                    switch view.type(keys.removeFirst()) {
                    case .editing: continue
                    case .submitted(let line): return line
                    case .interrupted:
                        wasInterrupted = true
                        return nil
                    case .ended: return nil
                    }
                }
                guard read(timeout: -1) else { return nil }
            }
        }
    }

    /// `script`'s lines, each typed into the input line a character at a time and submitted, with a pause
    /// after it to watch the screens; Control-C or Control-D ends them early, other keys are ignored.
    func typing(_ script: [String]) -> AnyIterator<String> {
        var remaining = script[...]
        var isFirst = true
        return AnyIterator { [self] in
            guard let line = remaining.popFirst() else { return nil }
            guard isFirst || pause(seconds: 1.5) else { return nil }
            isFirst = false
            for character in line {
                _ = view.type(.text(String(character)))
                guard pause(seconds: 0.04) else { return nil }
            }
            guard pause(seconds: 0.4), case .submitted(let submitted) = view.type(.enter) else { return nil }
            return submitted
        }
    }

    /// Waits `seconds`, watching the keys.
    ///
    /// - Returns: `false` if Control-C, Control-D or the end of the input came meanwhile.
    private func pause(seconds: Double) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while true {
            if keys.contains(.interrupt) {
                wasInterrupted = true
                return false
            }
            if keys.contains(.endOfInput) { return false }
            keys.removeAll()  // the others are not typed into the script's lines
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return true }
            guard read(timeout: Int32((deadline - now) / 1_000_000)) else { return false }
        }
    }

    /// Reads what is typed within `timeout` milliseconds (-1: however long it takes) into `keys`.
    ///
    /// - Returns: `false` at the end of the input.
    private func read(timeout: Int32) -> Bool {
        guard let bytes = terminal.read(timeout: timeout) else { return false }
        keys += decoder.keys(from: bytes)
        return true
    }
}
