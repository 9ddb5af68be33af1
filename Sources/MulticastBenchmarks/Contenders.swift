import Foundation
import Multicast

/// The delegate protocol every contender calls. Sendable, so that the churn benchmark can share a multicast.
protocol Receiver: AnyObject, Sendable {
    func receive(_ value: Int)
}

/// A delegate that adds up what it receives, so every sample can check that each call really happened.
///
/// Unchecked: only the thread that calls a contender calls `receive`.
final class Counter: Receiver, @unchecked Sendable {
    var total = 0

    @inline(never)
    func receive(_ value: Int) {
        total &+= value
    }
}

/// One way of calling many delegates: what a benchmark measures.
protocol Contender: AnyObject, SendableMetatype {
    /// The name in the table.
    static var name: String { get }

    /// Registers `receivers`; the contender holds them as it would in an app (weakly, where it can).
    init(_ receivers: [Counter])

    /// Calls `receive(value)` on every registered receiver once.
    func callAll(_ value: Int)
}

/// Contenders that can also register and unregister one delegate at a time.
protocol Registering: Contender {
    init()
    func register(_ receiver: Counter)
    func unregister(_ receiver: Counter)
}

// MARK: - Multicast

final class MulticastWeak: Registering, Sendable {
    static let name = "Multicast (weak)"
    let delegates = MulticastDelegate<any Receiver>()

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver) }
    }
    func callAll(_ value: Int) { delegates.call { $0.receive(value) } }
    func register(_ receiver: Counter) { delegates.add(receiver) }
    func unregister(_ receiver: Counter) { delegates.remove(receiver) }
}

final class MulticastStrong: Contender {
    static let name = "Multicast (.strong)"
    let delegates = MulticastDelegate<any Receiver>()

    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver, retention: .strong) }
    }
    func callAll(_ value: Int) { delegates.call { $0.receive(value) } }
}

// MARK: - NotificationCenter

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

// MARK: - The origin libraries' designs

/// SwiftMulticastProtocol's design: a strong array, a linear identity scan on add and remove, no lock.
final class SeedOneStyle: Registering {
    static let name = "Seed 1 style (strong array)"
    var notifiers: [any Receiver] = []

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { register(receiver) }
    }
    func callAll(_ value: Int) {
        for notifier in notifiers { notifier.receive(value) }
    }
    func register(_ receiver: Counter) {
        unregister(receiver)
        notifiers.append(receiver)
    }
    func unregister(_ receiver: Counter) {
        if let index = notifiers.firstIndex(where: { $0 === receiver }) {
            notifiers.remove(at: index)
        }
    }
}

/// DelegateNotificationCenter's design: weak boxes; each call builds a fresh array of the live objects (as
/// `NSHashTable.allObjects` does), walks it reversed and force-casts.
final class SeedTwoStyle: Registering {
    final class WeakBox {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    static let name = "Seed 2 style (weak boxes)"
    var boxes: [WeakBox] = []

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { register(receiver) }
    }
    func callAll(_ value: Int) {
        let allObjects = boxes.compactMap { $0.object }
        for object in allObjects.reversed() {
            (object as! any Receiver).receive(value)
        }
    }
    func register(_ receiver: Counter) {
        boxes.append(WeakBox(receiver))
    }
    func unregister(_ receiver: Counter) {
        boxes.removeAll { $0.object === receiver }
    }
}

// MARK: - Floors

/// Floor (i): a strong `[any Receiver]` loop over objects that are never weakly referenced.
final class StrongFloor: Contender {
    static let name = "Floor (i): strong array"
    let receivers: [any Receiver]

    init(_ receivers: [Counter]) {
        self.receivers = receivers
    }
    func callAll(_ value: Int) {
        for receiver in receivers { receiver.receive(value) }
    }
}

/// Floor (ii): one in-place weak load per delegate, from `weak var` fields read through a pointer; no lock,
/// no snapshot. Nothing that holds delegates weakly can do less.
final class WeakFloor: Contender {
    struct WeakField {
        weak var receiver: (any Receiver)?
    }

    static let name = "Floor (ii): in-place weak loads"
    let fields: UnsafeMutablePointer<WeakField>
    let count: Int

    init(_ receivers: [Counter]) {
        count = receivers.count
        fields = .allocate(capacity: Swift.max(count, 1))
        for (index, receiver) in receivers.enumerated() {
            (fields + index).initialize(to: WeakField(receiver: receiver))
        }
    }
    func callAll(_ value: Int) {
        for index in 0..<count {
            if let receiver = fields[index].receiver {
                receiver.receive(value)
            }
        }
    }
    deinit {
        fields.deinitialize(count: count)
        fields.deallocate()
    }
}

/// Every contender of the call benchmarks, in table order.
let callContenders: [any Contender.Type] = [
    MulticastWeak.self, MulticastStrong.self, NotificationCenterWeak.self, NotificationCenterStrong.self,
    SeedOneStyle.self, SeedTwoStyle.self, StrongFloor.self, WeakFloor.self,
]

/// The contenders of the add-and-remove benchmark.
let registeringContenders: [any Registering.Type] = [
    MulticastWeak.self, NotificationCenterWeak.self, SeedOneStyle.self, SeedTwoStyle.self,
]
