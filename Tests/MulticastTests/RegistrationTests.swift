import Multicast
import Testing

/// The registration view: what a module publishes so that others add and remove themselves, without calling.
@Suite struct RegistrationTests {
    let log = CallLog()

    @Test func aRegistrationAddsRemovesAndFindsOnItsMulticast() {
        let delegates = MulticastDelegate<any Listener>()
        let observers = delegates.registration
        let (first, second) = (Recorder("first", log: log), Recorder("second", log: log))
        #expect(observers.add(first))
        #expect(!observers.add(first))  // already there, as with the multicast
        #expect(observers.add(second, retention: .strong))
        #expect(observers.contains(first) && delegates.contains(second))
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["first", "second"])
        #expect(observers.remove(first))
        #expect(!observers.remove(first))
        #expect(!delegates.contains(first))
        #expect(delegates.count == 1)
    }

    @Test func aRegistrationHoldsWeakDelegatesWeakly() {
        let observers = MulticastDelegate<any Listener>().registration
        #expect(isDeallocated({ Recorder("gone", log: log) }) { observers.add($0) })
    }

    @Test func aRegistrationKeepsItsMulticastAlive() {
        let recorder = Recorder("kept", log: log)
        weak var weakMulticast: MulticastDelegate<any Listener>?
        let observers: MulticastDelegate<any Listener>.Registration
        do {
            let delegates = MulticastDelegate<any Listener>()
            weakMulticast = delegates
            observers = delegates.registration
        }
        #expect(weakMulticast != nil)
        #expect(observers.add(recorder))
        weakMulticast?.call { $0.hear(1) }
        #expect(log.calls == ["kept"])
    }
}

extension RegistrationTests {
    @Test func aRegistrationAddsReplacesFindsAndRemovesOwnedDelegates() {
        let delegates = MulticastDelegate<any Listener>()
        let observers = delegates.registration
        let owner = ProbeBase("owner", log: log)
        let (first, second) = (Recorder("first", log: log), Recorder("second", log: log))
        defer { extendLifetime((owner, first, second)) }
        #expect(observers.add(first, ownedBy: owner))
        #expect(observers.add(second, ownedBy: owner))
        #expect(observers.delegate(ownedBy: owner) === second)
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["second"])
        #expect(observers.remove(ownedBy: owner))
        #expect(!observers.remove(ownedBy: owner))
        #expect(delegates.isEmpty)
    }
}
