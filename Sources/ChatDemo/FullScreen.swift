import Chat
import Dispatch
import Foundation
import TerminalKit

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
        let view = FullScreenView(placeholder: ScreenSnapshot.placeholder)
        let session = ChatSession(
            console: view.console(), burstSeconds: burstSeconds, afterDelivery: view.redraws.request)

        let screens = session.screenStates
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var encoder = FrameEncoder(colored: colored)
            while view.redraws.next() {
                let frame = view.frame(panes: screens.snapshot(), size: Terminal.size())
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
