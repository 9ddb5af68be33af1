import Multicast
import MulticastChecks
import Testing

/// Registrations made with `add(_:ownedBy:)`: a delegate held strongly for as long as its owner lives, found,
/// replaced and removed by the owner, and ended by the owner's death as a weak delegate's registration is by its
/// own.
@Suite struct OwnedRegistrationTests {
    let log = CallLog()

    /// An object that owns registrations and nothing else; it may run an action in its deinit.
    final class Owner {
        let onDeinit: (Owner) -> Void
        init(onDeinit: @escaping (Owner) -> Void = { _ in }) { self.onDeinit = onDeinit }
        deinit { onDeinit(self) }
    }

    /// Adds a new recorder owned by `owner`, which only `delegates` keeps alive, and returns a weak handle to it.
    func addOwnedRecorder(
        _ name: String, to delegates: MulticastDelegate<any Listener>, ownedBy owner: AnyObject,
        onHear: ((Recorder) -> Void)? = nil
    ) -> () -> Recorder? {
        let recorder = Recorder(name, log: log, onHear: onHear)
        delegates.add(recorder, ownedBy: owner)
        return { [weak recorder] in recorder }
    }

    @Test func anOwnedDelegateIsCalledInRegistrationOrderWhileItsOwnerLives() {
        let delegates = MulticastDelegate<any Listener>()
        let owner = Owner()
        let weak = Recorder("weak", log: log)
        defer { extendLifetime(weak) }
        delegates.add(weak)
        let owned = addOwnedRecorder("owned", to: delegates, ownedBy: owner)
        _ = addStrongRecorder("strong", to: delegates, log: log)
        #expect(owned() != nil)  // the multicast holds it: nothing else does
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["weak", "owned", "strong"])
        #expect(delegates.count == 3)
        #expect(delegates.map(\.name) == ["weak", "owned", "strong"])
        extendLifetime(owner)
    }

    @Test func theMulticastDoesNotKeepTheOwnerAlive() {
        let delegates = MulticastDelegate<any Listener>()
        let recorder = Recorder("owned", log: log)
        defer { extendLifetime(recorder) }
        #expect(isDeallocated({ Owner() }) { delegates.add(recorder, ownedBy: $0) })
    }

    @Test func theOwnersDeathEndsTheRegistrationWithNoCallByAnyone() {
        let delegates = MulticastDelegate<any Listener>()
        var owned: () -> Recorder? = { nil }
        do {
            let owner = Owner()
            owned = addOwnedRecorder("owned", to: delegates, ownedBy: owner)
            #expect(delegates.count == 1)
            extendLifetime(owner)
        }
        #expect(delegates.count == 0)
        #expect(delegates.isEmpty)
        delegates.call { $0.hear(1) }
        #expect(log.calls.isEmpty)
        // The call found the ended registration, and released it as it ended.
        #expect(owned() == nil)
    }

    @Test func anOwnerThatDiesAsItsAddReturnsLeavesNothingToCall() {
        let delegates = MulticastDelegate<any Listener>()
        let owned = addOwnedRecorder("owned", to: delegates, ownedBy: Owner())
        #expect(delegates.count == 0)
        delegates.call { $0.hear(1) }
        #expect(log.calls.isEmpty)
        #expect(owned() == nil)
    }

    @Test func aSecondRegistrationForTheSameOwnerReplacesTheFirstAndTakesItsTurnAtTheEnd() {
        let delegates = MulticastDelegate<any Listener>()
        let (owner, other) = (Owner(), Owner())
        let first = addOwnedRecorder("first", to: delegates, ownedBy: owner)
        _ = addOwnedRecorder("other", to: delegates, ownedBy: other)
        let second = addOwnedRecorder("second", to: delegates, ownedBy: owner)
        #expect(first() == nil)  // released when replaced: no call was under way
        #expect(delegates.count == 2)
        #expect(delegates.delegate(ownedBy: owner) === second())
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["other", "second"])
        extendLifetime((owner, other))
    }

    @Test func anAddReturnsTrueWhenItRegistersAndReplaces() {
        let delegates = MulticastDelegate<any Listener>()
        let owner = Owner()
        let (first, second) = (Recorder("first", log: log), Recorder("second", log: log))
        #expect(delegates.add(first, ownedBy: owner))
        #expect(delegates.add(second, ownedBy: owner))
        #expect(delegates.add(second, ownedBy: owner))  // the same delegate again: still a new registration
        #expect(delegates.count == 1)
        extendLifetime(owner)
    }

    @Test func removeOwnedByEndsTheRegistrationAndReleasesTheDelegateAtOnce() {
        let delegates = MulticastDelegate<any Listener>()
        let owner = Owner()
        let owned = addOwnedRecorder("owned", to: delegates, ownedBy: owner)
        #expect(delegates.remove(ownedBy: owner))
        #expect(owned() == nil)
        #expect(!delegates.remove(ownedBy: owner))
        #expect(delegates.delegate(ownedBy: owner) == nil)
        delegates.call { $0.hear(1) }
        #expect(log.calls.isEmpty)
        extendLifetime(owner)
    }

    @Test func anOwnedRegistrationIsFoundThroughItsOwnerOnly() {
        let delegates = MulticastDelegate<any Listener>()
        let owner = Owner()
        let recorder = Recorder("owned", log: log)
        defer { extendLifetime((owner, recorder)) }
        delegates.add(recorder, ownedBy: owner)
        #expect(!delegates.contains(recorder))
        #expect(!delegates.remove(recorder))
        #expect(delegates.delegate(ownedBy: owner) === recorder)
        #expect(delegates.delegate(ownedBy: recorder) == nil)
        // The same object may also be registered as a delegate of its own: two registrations, two calls.
        #expect(delegates.add(recorder))
        #expect(delegates.contains(recorder))
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["owned", "owned"])
        #expect(delegates.remove(recorder))
        #expect(delegates.delegate(ownedBy: owner) === recorder)
    }

    @Test func anObjectThatIsADelegateCanOwnAnotherRegistration() {
        let delegates = MulticastDelegate<any Listener>()
        let screen = Recorder("screen", log: log)
        defer { extendLifetime(screen) }
        delegates.add(screen)
        let options = addOwnedRecorder("options", to: delegates, ownedBy: screen)
        #expect(delegates.contains(screen))
        #expect(delegates.remove(ownedBy: screen))
        #expect(options() == nil)
        #expect(delegates.contains(screen))  // its own registration stays
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["screen"])
    }

    @Test func anOwnerRemovedDuringACallBeforeItsTurnIsNotCalled() {
        let delegates = MulticastDelegate<any Listener>()
        let owner = Owner()
        _ = addOwnedRecorder("remover", to: delegates, ownedBy: Owner()) { _ in }
        let remover = Recorder("remover", log: log) { _ in delegates.remove(ownedBy: owner) }
        defer { extendLifetime(remover) }
        delegates.add(remover)
        let later = addOwnedRecorder("later", to: delegates, ownedBy: owner)
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["remover"])
        #expect(later() == nil)  // released when the call that held it ended
        extendLifetime(owner)
    }

    @Test func anOwnerThatDiesDuringACallBeforeItsTurnIsNotCalled() {
        let delegates = MulticastDelegate<any Listener>()
        var owner: Owner? = Owner()
        let killer = Recorder("killer", log: log) { _ in owner = nil }
        defer { extendLifetime(killer) }
        delegates.add(killer)
        _ = addOwnedRecorder("later", to: delegates, ownedBy: owner!)
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["killer"])
        #expect(owner == nil)
    }

    @Test func anOwnersDeinitThatRemovesItsRegistrationReleasesTheDelegate() {
        let delegates = MulticastDelegate<any Listener>()
        let removed = Box(false)
        var owned: () -> Recorder? = { nil }
        do {
            let owner = Owner { removed.value = delegates.remove(ownedBy: $0) }
            owned = addOwnedRecorder("owned", to: delegates, ownedBy: owner)
            extendLifetime(owner)
        }
        #expect(removed.value)
        #expect(owned() == nil)
        #expect(delegates.count == 0)
    }

    /// From the owner's deinit, the registration has ended: a call that reaches it first releases it, and the
    /// removal that follows answers that there was nothing left to remove.
    @Test func aRemovalFromTheOwnersDeinitAfterACallReleasedTheRegistrationAnswersFalse() {
        let delegates = MulticastDelegate<any Listener>()
        let removed = Box<Bool?>(nil)
        var owned: () -> Recorder? = { nil }
        do {
            let owner = Owner { owner in
                delegates.call { $0.hear(1) }  // finds the registration ended, and releases it
                removed.value = delegates.remove(ownedBy: owner)
            }
            owned = addOwnedRecorder("owned", to: delegates, ownedBy: owner)
            extendLifetime(owner)
        }
        #expect(removed.value == false)
        #expect(owned() == nil)
        #expect(log.calls.isEmpty)
    }

    /// Owners die on other threads while calls and adds run: each owner's deinit removes its registration, and
    /// answers `true` unless a call or an add released it first; every delegate is released, and none is called
    /// once its owner is dead.
    @Test func removalsFromOwnersDeinitsRacingCallsAndAddsReleaseEveryDelegate() {
        let delegates = MulticastDelegate<any Listener & Sendable>()
        let released = Box(0)
        let lock = CheckLock()
        let answers = Box<[Bool]>([])
        final class Counted: Listener, @unchecked Sendable {
            let name = "counted"
            let onDeinit: () -> Void
            init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
            func hear(_ event: Int) {}
            deinit { onDeinit() }
        }
        final class RemovingOwner: @unchecked Sendable {
            let delegates: MulticastDelegate<any Listener & Sendable>
            let answer: (Bool) -> Void
            init(_ delegates: MulticastDelegate<any Listener & Sendable>, answer: @escaping (Bool) -> Void) {
                (self.delegates, self.answer) = (delegates, answer)
            }
            deinit { answer(delegates.remove(ownedBy: self)) }
        }
        let owners = Box<[RemovingOwner?]>(
            (0..<600).map { _ in RemovingOwner(delegates) { answer in lock.withLock { answers.value.append(answer) } } }
        )
        for owner in owners.value {
            delegates.add(Counted { lock.withLock { released.value += 1 } }, ownedBy: owner!)
        }
        let done = Box(false)
        onThreads(3) { thread in
            switch thread {
            case 0:
                while !lock.withLock({ done.value }) { delegates.call { $0.hear(1) } }
            case 1:
                var extra: [SharedListener] = []
                while !lock.withLock({ done.value }) {
                    let listener = SharedListener("extra")
                    delegates.add(listener)  // weak: dies at once, and each add may search before growing
                    extra.append(listener)
                    if extra.count > 64 { extra.removeAll() }
                }
            default:
                for index in 0..<600 {
                    let owner = lock.withLock { () -> RemovingOwner? in
                        defer { owners.value[index] = nil }
                        return owners.value[index]
                    }
                    extendLifetime(owner)  // its last reference: its deinit runs here
                }
                lock.withLock { done.value = true }
            }
        }
        delegates.call { $0.hear(2) }
        #expect(lock.withLock { released.value } == 600)
        #expect(lock.withLock { answers.value.count } == 600)
        #expect(delegates.count == 0)
    }

    @Test func anOwnersDeinitThatRegistersAgainRegistersNothing() {
        let delegates = MulticastDelegate<any Listener>()
        let answer = Box<Bool?>(nil)
        let late = Box<() -> Recorder?>({ nil })
        do {
            let owner = Owner { owner in
                let recorder = Recorder("late", log: self.log)
                late.value = { [weak recorder] in recorder }
                answer.value = delegates.add(recorder, ownedBy: owner)
            }
            _ = addOwnedRecorder("owned", to: delegates, ownedBy: owner)
            extendLifetime(owner)
        }
        #expect(answer.value == false)
        #expect(late.value() == nil)  // not kept: nothing was registered
        #expect(delegates.count == 0)
        delegates.call { $0.hear(1) }
        #expect(log.calls.isEmpty)
    }

    @Test func aLookupFromTheOwnersDeinitFindsNoDelegate() {
        let delegates = MulticastDelegate<any Listener>()
        let found = Box<Bool?>(nil)
        do {
            let owner = Owner { found.value = delegates.delegate(ownedBy: $0) != nil }
            _ = addOwnedRecorder("owned", to: delegates, ownedBy: owner)
            extendLifetime(owner)
        }
        #expect(found.value == false)
    }

    @Test func aDelegateCanReplaceItsOwnRegistrationDuringACall() {
        let delegates = MulticastDelegate<any Listener>()
        let owner = Owner()
        let replacement = Recorder("replacement", log: log)
        defer { extendLifetime(replacement) }
        _ = addOwnedRecorder("first", to: delegates, ownedBy: owner) { _ in
            delegates.add(replacement, ownedBy: owner)
        }
        delegates.call { $0.hear(1) }  // the replacement, added during the call, waits for the next one
        delegates.call { $0.hear(2) }
        #expect(log.calls == ["first", "replacement"])
        extendLifetime(owner)
    }

    @Test func anOwnedDelegateIsDescribedAsOwnedWithItsOwnersClassEverywhere() {
        let delegates = MulticastDelegate<any Listener>()
        let owner = Owner()
        let strong = Recorder("strong", log: log)
        let weak = Recorder("weak", log: log)
        defer { extendLifetime((owner, strong, weak)) }
        delegates.add(weak)
        _ = addOwnedRecorder("owned", to: delegates, ownedBy: owner)
        delegates.add(strong, retention: .strong)
        #expect(
            String(describing: delegates)
                == "MulticastDelegate<Listener>[MulticastTests.Recorder (weak), MulticastTests.Recorder (owned by Owner), "
                + "MulticastTests.Recorder (strong)]")
        #expect(String(reflecting: delegates).contains("MulticastTests.Recorder (owned by Owner)"))
        let registered = delegates.registeredDelegates()
        #expect(registered.map(\.retention) == [.weak, .strong, .strong])
        #expect(registered.map { $0.ownerType.map { "\($0)" } } == [nil, "Owner", nil])
        #expect(Mirror(reflecting: delegates).children.map(\.label) == ["weak", "owned by Owner", "strong"])
    }

    @Test func aMulticastOfAClassTypeTakesOwnedRegistrations() {
        let boxes = MulticastDelegate<Recorder>()
        let owner = Owner()
        boxes.add(Recorder("box", log: log), ownedBy: owner)
        #expect(boxes.first(where: { _ in true })?.name == "box")
        boxes.call { $0.hear(1) }
        #expect(log.calls == ["box"])
        extendLifetime(owner)
    }

    @Test func replacingOwnersRegistrationsAgainAndAgainKeepsOneForEachOwner() {
        let delegates = MulticastDelegate<any Listener>()
        let owners = (0..<1000).map { _ in Owner() }
        let first = owners.indices.map { Recorder("first\($0)", log: log) }
        let replacements = (0..<32).map { Recorder("replacement\($0)", log: log) }
        for (delegate, owner) in zip(first, owners) { delegates.add(delegate, ownedBy: owner) }
        // Sixteen owners take turns, each between two delegates of its own, through several compactions.
        for made in 0..<4000 {
            let turn = made & 15
            delegates.add(replacements[turn * 2 + ((made >> 4) & 1)], ownedBy: owners[turn * owners.count / 16])
        }
        #expect(delegates.count == owners.count)
        delegates.call { $0.hear(1) }
        #expect(log.calls.count == owners.count)
        extendLifetime((owners, first))
    }

    @Test func manyOwnersComeAndGoAndEveryLiveOneIsCalledOnce() {
        let delegates = MulticastDelegate<any Listener>()
        var owners: [Owner] = []
        for round in 0..<200 {
            let owner = Owner()
            delegates.add(Recorder("r\(round)", log: log), ownedBy: owner)
            if round % 3 != 0 { owners.append(owner) }  // every third owner dies at once
            if round % 7 == 0, let replaced = owners.last {
                delegates.add(Recorder("replaced\(round)", log: log), ownedBy: replaced)
            }
            if round % 11 == 0, let removed = owners.first {
                delegates.remove(ownedBy: removed)
                owners.removeFirst()
            }
        }
        #expect(delegates.count == owners.count)
        log.clear()
        delegates.call { $0.hear(1) }
        #expect(log.calls.count == owners.count)
        #expect(Set(owners.map { delegates.delegate(ownedBy: $0)!.name }).count == owners.count)
    }
}

/// A value that a deinit can set, for a test to read.
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
