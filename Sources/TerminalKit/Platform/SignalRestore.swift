#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
