import Foundation

/// A value that many threads may read and change, one at a time.
///
/// The full-screen view's input and status lines are typed into on one thread and drawn from another, so they
/// live in a `Locked`:
///
/// ```swift
/// let typed = Locked("")
/// typed.withLock { $0 += "h" }
/// ```
///
/// It is built on Foundation's `NSLock`.
// Sendable because `value` is only read or written inside `withLock`, under `lock`.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates a locked box holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    ///
    /// Keep `body` short: every other thread that wants the value waits for it. Call nothing from it that
    /// might take another lock, or wait for this one.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
