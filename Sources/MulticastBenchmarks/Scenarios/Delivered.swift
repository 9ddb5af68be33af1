import Foundation

/// A value one thread delivers and another waits for.
///
/// Not a `Guarded` from MulticastChecks: the waiting thread sleeps on a condition until the value arrives,
/// where with a `Guarded` it would have to poll. Spinning would take a core from the tasks being timed (the
/// benchmark may have two), and sleeping between polls would wake the thread again and again while they run.
final class Delivered<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?
    func set(_ newValue: Value) {
        condition.lock()
        value = newValue
        condition.signal()
        condition.unlock()
    }
    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
