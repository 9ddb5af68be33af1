import ChatDemoKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input and output as the full-screen view's terminal: raw mode and the alternate screen from
/// ``open()`` to ``close()``.
///
/// Raw mode turns echo, line editing and the signal keys off: Control-C and Control-D arrive as bytes. The
/// alternate screen is the one `less` and `top` draw on; leaving it shows the shell's screen as it was.
/// Between `open()` and `close()`, a signal that would end the program (`SIGINT`, `SIGTERM`, `SIGHUP`, a crash
/// such as `SIGSEGV`, ...) first gives the terminal back: see ``SignalRestore``.
struct Terminal {
    /// Standard input's settings before raw mode, which `close()` puts back.
    private let saved: termios

    /// Sent on opening: the alternate screen, no wrapping at the right edge (a line the terminal finds too
    /// wide is cut there instead of pushing the screen up), a cleared screen.
    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?7l\u{1B}[2J"

    /// Sent on closing, and by the signal handlers: default colors, wrapping, a visible cursor, the main
    /// screen.
    static let leaveSequence = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    /// Puts the terminal in raw mode on the alternate screen.
    ///
    /// - Returns: The terminal, or nil if standard input's settings cannot be read or changed; then nothing
    ///   has changed.
    static func open() -> Terminal? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        cfmakeraw(&raw)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1  // a read returns as soon as one byte is there
            characters[Int(VTIME)] = 0
        }
        SignalRestore.install(saved: saved, leaveSequence: leaveSequence)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
            SignalRestore.uninstall()
            return nil
        }
        write(enterSequence)
        return Terminal(saved: saved)
    }

    /// Leaves the alternate screen and raw mode, as the terminal was before `open()`, and stops the signal
    /// handlers.
    func close() {
        Self.write(Self.leaveSequence)
        var saved = saved
        _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &saved)
        SignalRestore.uninstall()
    }

    /// The terminal's size now; 24 by 80 if it cannot tell.
    static func size() -> TerminalSize {
        var size = winsize()
        #if canImport(Darwin)
        let request = TIOCGWINSZ
        #else
        let request = UInt(TIOCGWINSZ)
        #endif
        guard ioctl(STDOUT_FILENO, request, &size) == 0, size.ws_row > 0, size.ws_col > 0 else {
            return TerminalSize(rows: 24, columns: 80)
        }
        return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }

    /// The bytes typed, waiting for them at most `timeout` milliseconds, or as long as it takes when it is
    /// negative.
    ///
    /// - Returns: The bytes, none if the time ran out, or nil at the end of the input.
    func read(timeout: Int32) -> [UInt8]? {
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&input, 1, timeout)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return ready == 0 ? [] : nil }
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = readStandardInput(into: &buffer)
            if count < 0 && errno == EINTR { continue }
            return count > 0 ? Array(buffer.prefix(count)) : nil
        }
    }

    /// Writes `text` to standard output whole, unbuffered.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = writeStandardOutput(bytes.baseAddress! + offset, count: bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// `read(2)` from standard input into `buffer`, for `Terminal.read(timeout:)`, whose name hides it.
private func readStandardInput(into buffer: inout [UInt8]) -> Int {
    buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
}

/// `write(2)` to standard output, for `Terminal.write(_:)`, whose name hides it.
private func writeStandardOutput(_ bytes: UnsafeRawPointer, count: Int) -> Int {
    write(STDOUT_FILENO, bytes, count)
}

/// Gives the terminal back when a signal ends the program between `Terminal.open()` and `close()`.
///
/// A handler may only call async-signal-safe functions, so everything it needs is prepared before it is
/// installed, in memory it only reads: the saved terminal settings, the bytes that leave the alternate screen,
/// and the signals' previous actions. The handler writes the bytes (`write(2)`) and puts the settings back
/// (`tcsetattr(3)`); then it calls the handler the signal had before, if any, such as the Swift runtime's,
/// which prints a crash report, now on the main screen; then it ends the program as the signal's default
/// action does (`sigaction(2)`, `raise(3)`), even if that handler returned, as the runtime's does for a
/// `SIGSEGV` sent with `kill`. A signal that was ignored stays ignored.
enum SignalRestore {
    /// The signals whose default action ends the program, and which a terminal, a user or a crash may send.
    static let signals = [
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS, SIGXCPU,
        SIGXFSZ,
    ]

    /// The signals whose handler is ours: set and read by `install` and `uninstall`, on the main thread only.
    nonisolated(unsafe) private static var installed: [Int32] = []

    /// Prepares what the handler needs, then installs it for every signal in ``signals`` that is not ignored.
    static func install(saved: termios, leaveSequence: String) {
        let bytes = Array(leaveSequence.utf8)
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        let state = restoreState  // initialized here, never first in a handler
        state.pointee.settings = saved
        state.pointee.bytes = copy
        state.pointee.count = bytes.count
        for signal in signals {
            let previous = state.pointee.previous + Int(signal)
            guard sigaction(signal, nil, previous) == 0, !isIgnored(previous.pointee) else { continue }
            var action = sigaction()
            setHandler(of: &action)
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(SA_SIGINFO)
            if sigaction(signal, &action, nil) == 0 {
                installed.append(signal)
            }
        }
    }

    /// Puts the previous action back for every signal whose handler is ours.
    static func uninstall() {
        for signal in installed {
            _ = sigaction(signal, restoreState.pointee.previous + Int(signal), nil)
        }
        installed = []
    }

    /// Whether an action ignores its signal: `SIG_IGN` as a plain handler.
    private static func isIgnored(_ action: sigaction) -> Bool {
        guard action.sa_flags & Int32(SA_SIGINFO) == 0, let handler = plainHandler(of: action) else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Makes `restoreTerminalAndResignal` the action's handler.
    private static func setHandler(of action: inout sigaction) {
        #if canImport(Darwin)
        action.__sigaction_u.__sa_sigaction = restoreTerminalAndResignal
        #else
        action.__sigaction_handler.sa_sigaction = restoreTerminalAndResignal
        #endif
    }
}

/// The handler of an action without `SA_SIGINFO`; nil for `SIG_DFL`.
private func plainHandler(of action: sigaction) -> (@convention(c) (Int32) -> Void)? {
    #if canImport(Darwin)
    action.__sigaction_u.__sa_handler
    #else
    action.__sigaction_handler.sa_handler
    #endif
}

/// The handler of an action with `SA_SIGINFO`.
private func informedHandler(
    of action: sigaction
) -> (@convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void)? {
    #if canImport(Darwin)
    action.__sigaction_u.__sa_sigaction
    #else
    action.__sigaction_handler.sa_sigaction
    #endif
}

/// What a signal handler reads, filled by `SignalRestore.install` before the handlers are installed.
private struct RestoreState {
    /// Signal numbers are below this: `NSIG` on Linux, which has 64 signals; Darwin has 32.
    static let signalNumbers = 65

    var settings = termios()
    var bytes: UnsafeMutablePointer<UInt8>? = nil
    var count = 0

    /// The actions before ours, by signal number; `SIG_DFL` until `install` reads them.
    let previous: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: signalNumbers)
        actions.initialize(repeating: sigaction(), count: signalNumbers)
        return actions
    }()
}

/// The one `RestoreState`, at an address that never changes.
nonisolated(unsafe) private let restoreState: UnsafeMutablePointer<RestoreState> = {
    let state = UnsafeMutablePointer<RestoreState>.allocate(capacity: 1)
    state.initialize(to: RestoreState())
    return state
}()

/// The signal handler: gives the terminal back, calls the signal's previous handler, then ends the program as
/// the signal's default action does.
///
/// Only async-signal-safe calls, on memory prepared before: see `SignalRestore`.
private func restoreTerminalAndResignal(
    _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
    let state = restoreState
    if let bytes = state.pointee.bytes {
        _ = write(STDOUT_FILENO, bytes, state.pointee.count)
    }
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &state.pointee.settings)

    let previous = state.pointee.previous[Int(signal)]
    if previous.sa_flags & Int32(SA_SIGINFO) != 0 {
        informedHandler(of: previous)?(signal, info, context)
    } else {
        plainHandler(of: previous)?(signal)  // nil for SIG_DFL; never SIG_IGN, which gets no handler of ours
    }
    var byDefault = sigaction()  // SIG_DFL
    _ = sigaction(signal, &byDefault, nil)
    // Blocked while this handler runs: delivered, and ends the program, as soon as it returns.
    _ = raise(signal)
}
