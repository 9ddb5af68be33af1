import Dispatch

/// The keys typed on the terminal, as lines for the program: keys edit the view's input line, and Return
/// submits it. Used from one thread only, the one that runs the lines.
package final class Keyboard {
    private let terminal: Terminal
    private let view: FullScreenView
    private var decoder = KeyDecoder()

    /// Keys read and not handled yet, oldest first.
    private var keys: [Key] = []

    /// Whether Control-C ended the lines.
    package private(set) var wasInterrupted = false

    /// Creates a keyboard that reads from `terminal` and types into `view`.
    package init(terminal: Terminal, view: FullScreenView) {
        self.terminal = terminal
        self.view = view
    }

    /// The lines typed, each as the program asks for it; they end with Control-C, Control-D on an empty line,
    /// or the end of the input.
    package func lines() -> AnyIterator<String> {
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
    /// after it to watch the panes; Control-C or Control-D ends them early, other keys are ignored.
    package func typing(_ script: [String]) -> AnyIterator<String> {
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
