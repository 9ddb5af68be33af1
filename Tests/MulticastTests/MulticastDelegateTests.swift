import MulticastChecks
import Testing

@testable import Multicast

@Suite struct MulticastDelegateTests {
    let log = CallLog()

    func recorders(_ names: String...) -> [Recorder] {
        names.map { Recorder($0, log: log) }
    }

    // MARK: 1. Weak by default

    @Test func weakDelegateIsNotKeptAlive() {
        let delegates = MulticastDelegate<any Listener>()
        #expect(isDeallocated({ Recorder("a", log: log) }, after: { delegates.add($0) }))
    }

    @Test func deallocatedDelegateIsNotCalledCountedOrContained() {
        let delegates = MulticastDelegate<any Listener>()
        let kept = Recorder("kept", log: log)
        delegates.add(kept)
        do {
            let gone = Recorder("gone", log: log)
            delegates.add(gone)
            #expect(delegates.count == 2)
        }
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["kept"])
        #expect(delegates.count == 1)
        #expect(delegates.map(\.name) == ["kept"])
        #expect(!delegates.isEmpty)
    }

    @Test func slotsOfDeallocatedDelegatesAreReclaimedByCalls() {
        let delegates = MulticastDelegate<any Listener>()
        let kept = Recorder("kept", log: log)
        delegates.add(kept)
        var temporaries = (0..<1000).map { Recorder("temporary \($0)", log: log) }
        for delegate in temporaries { delegates.add(delegate) }
        #expect(delegates.slotsInUse == 1001)
        temporaries.removeAll()
        delegates.call { $0.hear(1) }
        #expect(delegates.slotsInUse == 1)
        #expect(log.calls == ["kept"])
    }

    @Test func slotsOfDeallocatedDelegatesAreReclaimedByAdds() {
        let delegates = MulticastDelegate<any Listener>()
        for index in 0..<10_000 {
            delegates.add(Recorder("temporary \(index)", log: log))
        }
        // Each delegate dies right after it is added: the storage never grows past its smallest rebuilt size.
        #expect(delegates.slotsInUse <= 8)
        #expect(delegates.slotCapacity <= 8)
        #expect(delegates.isEmpty)
    }

    // MARK: 2. Strong retention

    @Test func strongDelegateLivesUntilRemoved() {
        let delegates = MulticastDelegate<any Listener>()
        weak var weakDelegate: Recorder?
        do {
            let delegate = Recorder("strong", log: log)
            weakDelegate = delegate
            delegates.add(delegate, retention: .strong)
        }
        #expect(weakDelegate != nil)
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["strong"])
        #expect(delegates.remove(weakDelegate!))
        #expect(weakDelegate == nil)
    }

    @Test func strongDelegatesAreReleasedByRemoveAll() {
        let delegates = MulticastDelegate<any Listener>()
        weak var first: Recorder?
        weak var second: Recorder?
        do {
            let a = Recorder("a", log: log)
            let b = Recorder("b", log: log)
            (first, second) = (a, b)
            delegates.add(a, retention: .strong)
            delegates.add(b, retention: .strong)
        }
        #expect(first != nil && second != nil)
        delegates.removeAll()
        #expect(first == nil && second == nil)
        #expect(delegates.isEmpty)
    }

    @Test func strongDelegatesAreReleasedWithTheMulticast() {
        weak var weakDelegate: Recorder?
        do {
            let delegates = MulticastDelegate<any Listener>()
            let delegate = Recorder("strong", log: log)
            weakDelegate = delegate
            delegates.add(delegate, retention: .strong)
        }
        #expect(weakDelegate == nil)
    }

    @Test func delegateThatOwnsItsMulticastFormsNoCycle() {
        final class Owner: Listener {
            let name = "owner"
            let delegates = MulticastDelegate<any Listener>()
            init() { delegates.add(self) }
            func hear(_ event: Int) {}
        }
        #expect(isDeallocated({ Owner() }, after: { $0.delegates.call { $0.hear(1) } }))
    }

    // MARK: 3. Identity

    @Test func addingARegisteredDelegateAgainChangesNothing() {
        let delegates = MulticastDelegate<any Listener>()
        let (a, b) = (Recorder("a", log: log), Recorder("b", log: log))
        #expect(delegates.add(a))
        #expect(delegates.add(b, retention: .strong))
        #expect(!delegates.add(a))
        #expect(!delegates.add(a, retention: .weak))
        #expect(!delegates.add(b, retention: .strong))
        #expect(delegates.map(\.name) == ["a", "b"])
        #expect(delegates.count == 2)
    }

    @Test func equalButDistinctObjectsAreTwoDelegates() {
        let delegates = MulticastDelegate<any Listener>()
        let (a, b) = (EqualRecorder("a", log: log), EqualRecorder("b", log: log))
        #expect(a == b)
        #expect(delegates.add(a))
        #expect(delegates.add(b))
        #expect(delegates.count == 2)
        #expect(delegates.remove(a))
        #expect(delegates.contains(b))
        #expect(!delegates.contains(a))
    }

    @Test func newObjectAtADeadDelegatesAddressIsANewDelegate() throws {
        let delegates = MulticastDelegate<any Listener>()
        var deadAddress: ObjectIdentifier?
        do {
            let dead = Recorder("dead", log: log)
            deadAddress = ObjectIdentifier(dead)
            delegates.add(dead)
        }
        // Allocate until the allocator hands out the dead delegate's address again.
        var reused: Recorder?
        var keep: [Recorder] = []
        for _ in 0..<10_000 {
            let candidate = Recorder("new", log: log)
            if ObjectIdentifier(candidate) == deadAddress {
                reused = candidate
                break
            }
            keep.append(candidate)
        }
        let newcomer = try #require(reused, "the allocator never reused the address; the test cannot run")
        #expect(!delegates.contains(newcomer))
        #expect(!delegates.remove(newcomer))
        #expect(delegates.add(newcomer))
        #expect(delegates.contains(newcomer))
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["new"])
        #expect(delegates.count == 1)
    }

    @Test func removingAnUnregisteredDelegateReturnsFalse() {
        let delegates = MulticastDelegate<any Listener>()
        let (a, b) = (Recorder("a", log: log), Recorder("b", log: log))
        delegates.add(a)
        #expect(!delegates.remove(b))
        #expect(delegates.remove(a))
        #expect(!delegates.remove(a))
        #expect(delegates.isEmpty)
    }

    // MARK: 4. Bad input

    @Test func containsAndRemoveAnswerFalseForAValueThatIsNotAClassInstance() {
        struct PlainGreeter: Greeter {
            func greet() {}
        }
        let delegates = MulticastDelegate<any Greeter>()
        #expect(!delegates.contains(PlainGreeter()))  // it can never be registered
        #expect(!delegates.remove(PlainGreeter()))
    }

    @Test func aDelegateThatRemovesItselfInItsDeinitIsAlreadyGone() {
        final class Leaving: Listener {
            let name = "leaving"
            let delegates: MulticastDelegate<any Listener>
            let removed: CallLog
            init(_ delegates: MulticastDelegate<any Listener>, removed: CallLog) {
                self.delegates = delegates
                self.removed = removed
            }
            func hear(_ event: Int) {}
            deinit { removed.append("\(delegates.remove(self))") }
        }
        let delegates = MulticastDelegate<any Listener>()
        let removed = CallLog()
        do {
            let leaving = Leaving(delegates, removed: removed)
            #expect(delegates.add(leaving))
            #expect(delegates.count == 1)
        }
        #expect(removed.calls == ["false"])  // no removal was needed: the weak delegate was gone already
        #expect(delegates.isEmpty)
    }

    @Test func classInstancesOfAProtocolThatIsNotClassBoundAreFine() {
        final class ClassGreeter: Greeter {
            var greeted = 0
            func greet() { greeted += 1 }
        }
        let delegates = MulticastDelegate<any Greeter>()
        let greeter = ClassGreeter()
        #expect(delegates.add(greeter))
        #expect(!delegates.add(greeter))
        delegates.call { $0.greet() }
        #expect(greeter.greeted == 1)
        #expect(isDeallocated({ ClassGreeter() }, after: { delegates.add($0) }))
    }

    // MARK: 5. Order

    @Test func delegatesAreCalledInTheOrderTheyWereAdded() {
        let delegates = MulticastDelegate<any Listener>()
        var random = SplitMix64(seed: 42)
        let added = (0..<100).map { Recorder("\($0)", log: log) }.shuffled(using: &random)
        for delegate in added { delegates.add(delegate) }
        delegates.call { $0.hear(1) }
        #expect(log.calls == added.map(\.name))
        #expect(delegates.map(\.name) == added.map(\.name))
    }

    @Test func removingAndAddingAgainMovesADelegateToTheEnd() {
        let delegates = MulticastDelegate<any Listener>()
        let (a, b, c) = (Recorder("a", log: log), Recorder("b", log: log), Recorder("c", log: log))
        delegates.add(a)
        delegates.add(b, retention: .strong)
        delegates.add(c)
        delegates.remove(a)
        delegates.add(a)
        delegates.remove(b)
        delegates.add(b)
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["c", "a", "b"])
    }

    @Test func orderSurvivesCompaction() {
        let delegates = MulticastDelegate<any Listener>()
        let all = (0..<200).map { Recorder("\($0)", log: log) }
        for delegate in all { delegates.add(delegate) }
        for delegate in all where Int(delegate.name)! % 3 != 0 { delegates.remove(delegate) }
        #expect(delegates.slotsInUse < 200)
        #expect(delegates.map(\.name) == all.filter { Int($0.name)! % 3 == 0 }.map(\.name))
    }

    // MARK: 6. Re-entrancy

    @Test func removedBeforeTurnIsNotCalled() {
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2", "3")
        all[0].onHear = { _ in delegates.remove(all[1]) }
        for delegate in all { delegates.add(delegate) }
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["0", "2", "3"])
    }

    @Test func strongDelegateRemovedBeforeTurnIsNotCalled() {
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2", "3")
        all[0].onHear = { _ in delegates.remove(all[2]) }
        for delegate in all { delegates.add(delegate, retention: .strong) }
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["0", "1", "3"])
        log.clear()
        delegates.call { $0.hear(2) }
        #expect(log.calls == ["0", "1", "3"])
    }

    @Test func deallocatedBeforeTurnIsNotCalled() {
        let delegates = MulticastDelegate<any Listener>()
        var doomed: Recorder? = Recorder("doomed", log: log)
        let first = Recorder("first", log: log) { _ in doomed = nil }
        let last = Recorder("last", log: log)
        delegates.add(first)
        delegates.add(doomed!)
        delegates.add(last)
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["first", "last"])
    }

    /// A weak delegate whose owner lets go of it during its turn is deallocated when the pass lets go of it,
    /// before the next turn: a removal that its deinit makes stops the next delegate, in every kind of pass.
    @Test func removedByTheDeinitOfTheDelegateBeforeIsNotCalled() {
        final class Doomed: Listener {
            let name = "a"
            let log: CallLog
            var onHear: () -> Void = {}
            var onDeinit: () -> Void = {}
            init(log: CallLog) { self.log = log }
            func hear(_ event: Int) {
                log.append(name)
                onHear()
            }
            deinit { onDeinit() }
        }
        for pass in ["call", "first(where:)", "contains(where:)", "allSatisfy", "for in", "map"] {
            log.clear()
            let delegates = MulticastDelegate<any Listener>()
            let b = Recorder("b", log: log)
            defer { extendLifetime(b) }
            var a: Doomed? = Doomed(log: log)
            a!.onHear = { a = nil }  // the pass holds the last reference to it until its turn ends
            a!.onDeinit = { delegates.remove(b) }
            delegates.add(a!)
            delegates.add(b)
            switch pass {
            case "call": delegates.call { $0.hear(1) }
            case "first(where:)": _ = delegates.first { $0.hear(1) == () && false }
            case "contains(where:)": _ = delegates.contains { $0.hear(1) == () && false }
            case "allSatisfy": _ = delegates.allSatisfy { $0.hear(1) == () }
            case "for in": for delegate in delegates { delegate.hear(1) }
            default: _ = delegates.map { $0.hear(1) }
            }
            #expect(log.calls == ["a"], "\(pass)")
            #expect(a == nil)
        }
    }

    @Test func removedAfterTurnWasCalledOnce() {
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2")
        all[2].onHear = { _ in delegates.remove(all[0]) }
        for delegate in all { delegates.add(delegate) }
        delegates.call { $0.hear(1) }
        delegates.call { $0.hear(2) }
        #expect(log.calls == ["0", "1", "2", "1", "2"])
    }

    @Test func delegatesRemovingThemselvesAreEachCalledOnce() {
        let delegates = MulticastDelegate<any Listener>()
        let all = (0..<50).map { index in
            Recorder("\(index)", log: log) { delegates.remove($0) }
        }
        for delegate in all {
            delegates.add(delegate, retention: index(of: delegate, in: all) % 2 == 0 ? .weak : .strong)
        }
        delegates.call { $0.hear(1) }
        delegates.call { $0.hear(2) }
        #expect(log.calls == all.map(\.name))
        #expect(delegates.isEmpty)
    }

    @Test func addedDuringAPassIsCalledByTheNextOne() {
        let delegates = MulticastDelegate<any Listener>()
        let late = Recorder("late", log: log)
        let first = Recorder("first", log: log) { _ in delegates.add(late) }
        delegates.add(first)
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["first"])
        delegates.call { $0.hear(2) }
        #expect(log.calls == ["first", "first", "late"])
    }

    @Test func removalAfterTheStorageGrewDuringAPassIsSeen() {
        let delegates = MulticastDelegate<any Listener>()
        let latecomers = (0..<64).map { Recorder("late \($0)", log: log) }
        let all = recorders("0", "1", "2")
        all[0].onHear = { _ in
            for delegate in latecomers { delegates.add(delegate) }  // grows the storage: the pass keeps the old one
            delegates.remove(all[2])
        }
        for delegate in all { delegates.add(delegate) }
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["0", "1"])
        #expect(delegates.count == 66)
    }

    @Test func removeAllDuringAPassStopsIt() {
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2")
        all[1].onHear = { _ in delegates.removeAll() }
        for delegate in all { delegates.add(delegate, retention: .strong) }
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["0", "1"])
        #expect(delegates.isEmpty)
    }

    @Test func nestedCallRunsFully() {
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2")
        defer { extendLifetime(all) }
        all[1].onHear = { recorder in
            if recorder.heard.count == 1 {
                delegates.call { $0.hear(2) }
            }
        }
        for delegate in all { delegates.add(delegate) }
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["0", "1", "0", "1", "2", "2"])
    }

    @Test func delegatesMayUseOtherMulticasts() {
        let first = MulticastDelegate<any Listener>()
        let second = MulticastDelegate<any Listener>()
        let relay = Recorder("relay", log: log) { _ in second.call { $0.hear(2) } }
        let listener = Recorder("listener", log: log) { _ in first.remove(relay) }
        first.add(relay)
        second.add(listener)
        first.call { $0.hear(1) }
        first.call { $0.hear(1) }
        #expect(log.calls == ["relay", "listener"])
    }

    @Test func delegateDeinitMayUseTheMulticast() {
        final class Unsubscriber: Listener {
            let name = "unsubscriber"
            let delegates: MulticastDelegate<any Listener>
            init(_ delegates: MulticastDelegate<any Listener>) { self.delegates = delegates }
            func hear(_ event: Int) {}
            deinit { delegates.remove(self) }
        }
        let delegates = MulticastDelegate<any Listener>()
        delegates.add(Unsubscriber(delegates), retention: .strong)
        delegates.add(Unsubscriber(delegates), retention: .strong)
        delegates.removeAll()  // each deinit runs outside the lock, or this would deadlock
        #expect(delegates.isEmpty)
    }

    // MARK: 8. Errors

    @Test func aThrowingBodyStopsThePassAndRethrows() {
        struct Stop: Error, Equatable {}
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2")
        defer { extendLifetime(all) }
        for delegate in all { delegates.add(delegate) }
        #expect(throws: Stop()) {
            try delegates.call { delegate in
                delegate.hear(1)
                if delegate.name == "1" { throw Stop() }
            }
        }
        #expect(log.calls == ["0", "1"])
        delegates.call { $0.hear(2) }
        #expect(log.calls == ["0", "1", "0", "1", "2"])
    }

    @Test func aTypedErrorKeepsItsType() {
        struct Invalid: Error, Equatable {
            let name: String
        }
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2")
        defer { extendLifetime(all) }
        for delegate in all { delegates.add(delegate) }
        func validate() throws(Invalid) {
            try delegates.call { delegate throws(Invalid) in
                delegate.hear(1)
                if delegate.name == "1" { throw Invalid(name: delegate.name) }
            }
        }
        do {
            try validate()
            Issue.record("the call did not throw")
        } catch {
            #expect(error == Invalid(name: "1"))  // compiles only because `error` is an `Invalid`
        }
        #expect(log.calls == ["0", "1"])
    }
}

func index(of recorder: Recorder, in all: [Recorder]) -> Int {
    all.firstIndex { $0 === recorder }!
}

protocol Greeter {
    func greet()
}
