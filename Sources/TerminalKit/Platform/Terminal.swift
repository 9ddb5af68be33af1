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
package struct Terminal {
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
    package static func open() -> Terminal? {
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
    package func close() {
        Self.write(Self.leaveSequence)
        var saved = saved
        _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &saved)
        SignalRestore.uninstall()
    }

    /// The terminal's size now; 24 by 80 if it cannot tell.
    package static func size() -> TerminalSize {
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
    package func read(timeout: Int32) -> [UInt8]? {
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
    package static func write(_ text: String) {
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
