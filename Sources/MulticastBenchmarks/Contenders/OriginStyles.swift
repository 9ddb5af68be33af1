// The designs of the libraries Multicast comes from, written again as contenders.

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
