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
