import Foundation

/// A value that many threads may read and change, one at a time.
///
/// The screens receive messages on whichever thread sends them (`/burst` sends from four at once), so their
/// state lives in a `Locked`:
///
/// ```swift
/// let unread = Locked([String: Int]())
/// unread.withLock { $0["general", default: 0] += 1 }
/// ```
///
/// The demo uses `NSLock`; the library keeps its own, faster lock private.
// Sendable because `value` is only read or written inside `withLock`, under `lock`.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates a locked box holding `value`.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    ///
    /// Keep `body` short: every other thread that wants the value waits for it. Do not call into the
    /// multicast from it.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
