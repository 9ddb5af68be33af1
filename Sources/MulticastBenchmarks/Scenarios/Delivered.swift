import Foundation

/// A value one thread delivers and another waits for.
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
