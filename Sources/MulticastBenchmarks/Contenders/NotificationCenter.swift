// NotificationCenter's block observers, posting a `userInfo` payload or none.

import Foundation

let benchmarkNotification = Notification.Name("MulticastBenchmarks.event")

/// Block observers capturing `[weak receiver]`: how NotificationCenter is used without leaks.
///
/// Unchecked: `observers` is only used by the thread that registers (NotificationCenter itself is
/// thread-safe).
final class NotificationCenterWeak: Registering, @unchecked Sendable {
    static let name = "NotificationCenter [weak]"
    let center = NotificationCenter()
    var observers: [ObjectIdentifier: any NSObjectProtocol] = [:]

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { register(receiver) }
    }
    func callAll(_ value: Int) {
        center.post(name: benchmarkNotification, object: nil, userInfo: ["value": value])
    }
    func register(_ receiver: Counter) {
        observers[ObjectIdentifier(receiver)] = center.addObserver(
            forName: benchmarkNotification,
            object: nil,
            queue: nil
        ) { [weak receiver] notification in
            receiver?.receive(notification.userInfo!["value"] as! Int)
        }
    }
    func unregister(_ receiver: Counter) {
        if let observer = observers.removeValue(forKey: ObjectIdentifier(receiver)) {
            center.removeObserver(observer)
        }
    }
}

/// Block observers capturing `[weak receiver]`, posted without a `userInfo` payload: NotificationCenter at its
/// cheapest. The observers read the value from where the poster left it, as observers of an event without a
/// payload read the state that changed.
///
/// Unchecked: `observers` is only used by the thread that registers, and `value` by the thread that posts.
final class NotificationCenterWeakNoPayload: Contender, @unchecked Sendable {
    final class Value: @unchecked Sendable {
        var current = 0
    }

    static let name = "NotificationCenter [weak], no payload"
    let center = NotificationCenter()
    let value = Value()
    var observers: [any NSObjectProtocol] = []

    init(_ receivers: [Counter]) {
        for receiver in receivers {
            observers.append(
                center.addObserver(forName: benchmarkNotification, object: nil, queue: nil) {
                    [weak receiver, value] _ in
                    receiver?.receive(value.current)
                }
            )
        }
    }
    func callAll(_ value: Int) {
        self.value.current = value
        center.post(name: benchmarkNotification, object: nil)
    }
    deinit {
        for observer in observers { center.removeObserver(observer) }
    }
}

/// Block observers capturing the receiver strongly.
final class NotificationCenterStrong: Contender {
    static let name = "NotificationCenter (strong)"
    let center = NotificationCenter()
    var observers: [any NSObjectProtocol] = []

    init(_ receivers: [Counter]) {
        for receiver in receivers {
            observers.append(
                center.addObserver(forName: benchmarkNotification, object: nil, queue: nil) { notification in
                    receiver.receive(notification.userInfo!["value"] as! Int)
                }
            )
        }
    }
    func callAll(_ value: Int) {
        center.post(name: benchmarkNotification, object: nil, userInfo: ["value": value])
    }
    deinit {
        for observer in observers { center.removeObserver(observer) }
    }
}
