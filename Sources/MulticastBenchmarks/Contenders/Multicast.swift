// Multicast, as an app holds it: weakly, strongly, on the main actor, and its two async calls.

import Multicast

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

final class MulticastStrong: Registering {
    static let name = "Multicast (.strong)"
    let delegates = MulticastDelegate<any Receiver>()

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver, retention: .strong) }
    }
    func callAll(_ value: Int) { delegates.call { $0.receive(value) } }
    func register(_ receiver: Counter) { delegates.add(receiver, retention: .strong) }
    func unregister(_ receiver: Counter) { delegates.remove(receiver) }
}

/// Multicast called on the main actor, as UI code calls it: a `@MainActor` delegate protocol.
///
/// Unchecked: only the main thread uses it.
final class MulticastMainActor: MainActorContender, @unchecked Sendable {
    static let name = "Multicast (weak, @MainActor)"
    let delegates = MulticastDelegate<any MainActorReceiver>()

    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver) }
    }
    @MainActor func callAllOnMainActor(_ value: Int) {
        delegates.call { $0.receive(value) }
    }
}

/// Multicast's `inTurn.call`: the delegates one after another, on the caller's actor.
final class MulticastAsyncCall: AsyncContender {
    static let name = "Multicast inTurn.call (one after another)"
    let delegates = MulticastDelegate<any AsyncReceiver>()

    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver) }
    }
    func deliver(_ value: Int) async {
        await delegates.inTurn.call { await $0.receive(value) }
    }
}

/// Multicast's `concurrently.call`: a child task per delegate, all awaited.
final class MulticastConcurrentCall: AsyncContender {
    static let name = "Multicast concurrently.call"
    let delegates = MulticastDelegate<any AsyncReceiver>()

    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver) }
    }
    func deliver(_ value: Int) async {
        await delegates.concurrently.call { await $0.receive(value) }
    }
}

/// Multicast holding each delegate strongly for as long as its owner, another object, lives.
///
/// In the call table, each receiver is a delegate owned by an owner that the contender makes and keeps alive. In
/// the bulk table, each receiver is an owner, which adds a delegate made by `prepare(_:)`, untimed, as the other
/// contenders' receivers are made.
final class MulticastOwned: Registering {
    static let name = "Multicast (owned)"
    let delegates = MulticastDelegate<any Receiver>()
    /// The owners of the call table's delegates, one each.
    let owners: [Owner]
    /// The delegates that `register` adds, one per receiver given to `prepare(_:)`, in that order, which is the
    /// order in which the bulk scenario registers its receivers; `unretained` holds the same, for `register`.
    var prepared: [Counter] = []
    /// `prepared`, unretained: `register` passes each delegate as the other contenders pass their receivers, with
    /// no count taken and given back around the add, which `prepared` keeps alive. Unchecked for exclusive access,
    /// which a debug build would check at each `register`, at a cost the other contenders do not pay: one thread
    /// uses them.
    @exclusivity(unchecked) var unretained: [Unmanaged<Counter>] = []
    @exclusivity(unchecked) var registered = 0

    init() { owners = [] }
    init(_ receivers: [Counter]) {
        owners = receivers.map { _ in Owner() }
        for (receiver, owner) in zip(receivers, owners) { delegates.add(receiver, ownedBy: owner) }
    }
    func callAll(_ value: Int) { delegates.call { $0.receive(value) } }
    func prepare(_ receivers: [Counter]) -> [Counter] {
        prepared = receivers.map { _ in Counter() }
        unretained = prepared.map { Unmanaged.passUnretained($0) }
        registered = 0
        return prepared
    }
    func register(_ receiver: Counter) {
        _ = unretained[registered]._withUnsafeGuaranteedRef { delegates.add($0, ownedBy: receiver) }
        registered += 1
    }
    func unregister(_ receiver: Counter) { delegates.remove(ownedBy: receiver) }
}

/// An object that owns a registration and does nothing else.
final class Owner {}

/// Multicast in place of NotificationCenter's block observers: each add makes a delegate around a closure that
/// captures the receiver `[weak receiver]`, owned by the receiver, which a removal names.
final class MulticastOwnedClosure: Registering {
    static let name = "Multicast (owned, closure)"
    let delegates = MulticastDelegate<any Receiver>()

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { register(receiver) }
    }
    func callAll(_ value: Int) { delegates.call { $0.receive(value) } }
    func register(_ receiver: Counter) {
        delegates.add(ClosureReceiver { [weak receiver] value in receiver?.receive(value) }, ownedBy: receiver)
    }
    func unregister(_ receiver: Counter) { delegates.remove(ownedBy: receiver) }
}

/// A delegate that runs a closure: what replaces a NotificationCenter block observer.
final class ClosureReceiver: Receiver {
    let body: @Sendable (Int) -> Void

    init(_ body: @escaping @Sendable (Int) -> Void) {
        self.body = body
    }
    func receive(_ value: Int) {
        body(value)
    }
}
