import Testing

@testable import Multicast

/// Lifetimes beyond `MulticastDelegateTests`' weak and strong retention tests: during passes, across
/// multicasts, and for cycles. (The model-based tests also check, after every operation, which delegates are
/// alive.)
@Suite struct MemoryTests {
    let log = CallLog()

    @Test func weakDelegateInManyMulticastsIsNotKeptAliveByCallsOrIterators() {
        let multicasts = (0..<3).map { _ in MulticastDelegate<any Listener>() }
        #expect(
            isDeallocated(
                { Recorder("weak", log: log) },
                after: { recorder in
                    for delegates in multicasts {
                        delegates.add(recorder)
                        delegates.call { $0.hear(1) }
                        _ = delegates.map(\.name)
                        _ = delegates.first { _ in true }
                    }
                }
            )
        )
        #expect(multicasts.allSatisfy { $0.isEmpty })
        #expect(log.calls == ["weak", "weak", "weak"])
    }

    @Test func anUnfinishedIteratorDoesNotKeepAWeakDelegateAlive() {
        let delegates = MulticastDelegate<any Listener>()
        let first = Recorder("first", log: log)
        delegates.add(first)
        var iterator: MulticastDelegate<any Listener>.Iterator?
        var firstName: String?
        let secondDied = isDeallocated(
            { Recorder("second", log: log) },
            after: { second in
                delegates.add(second)
                iterator = delegates.makeIterator()
                firstName = iterator?.next()?.name
            }
        )
        #expect(secondDied)
        #expect(firstName == "first")
        #expect(iterator?.next() == nil)  // the second died before its turn
    }

    @Test func strongDelegateRemovedDuringAPassIsReleasedWhenThePassEnds() {
        let delegates = MulticastDelegate<any Listener>()
        let victim = addStrongRecorder("victim", to: delegates, log: log)
        let remover = Recorder("remover", log: log) { _ in
            delegates.remove(victim()!)
        }
        delegates.add(remover)
        delegates.call { $0.hear(1) }
        #expect(victim() == nil)
        #expect(log.calls == ["victim", "remover"])
    }

    @Test func strongDelegatesAddedDuringAPassAreReleasedByRemoveAll() {
        let delegates = MulticastDelegate<any Listener>()
        var added: [() -> Recorder?] = []
        let adder = Recorder("adder", log: log) { _ in
            for index in 0..<20 {
                let recorder = Recorder("added \(index)", log: log)
                added.append { [weak recorder] in recorder }
                delegates.add(recorder, retention: .strong)
            }
            delegates.removeAll()
        }
        delegates.add(adder)
        delegates.call { $0.hear(1) }
        #expect(added.count == 20)
        #expect(added.allSatisfy { $0() == nil })
        #expect(delegates.isEmpty)
    }

    @Test func ownerReleasedDuringItsOwnMulticastsPassIsDeallocatedAfterIt() {
        final class Owner: Listener {
            let name = "owner"
            let delegates = MulticastDelegate<any Listener>()
            var onHear: (() -> Void)?
            func hear(_ event: Int) { onHear?() }
        }
        var owner: Owner? = Owner()
        weak let weakOwner = owner
        weak let weakMulticast = owner?.delegates
        let others = (0..<3).map { Recorder("\($0)", log: log) }
        defer { extendLifetime(others) }
        owner!.delegates.add(others[0])
        owner!.delegates.add(owner!)
        owner!.delegates.add(others[1], retention: .strong)
        owner!.delegates.add(others[2])
        owner!.onHear = { owner = nil }  // drops the last reference to the owner, and so to the multicast
        let delegates = owner!.delegates
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["0", "1", "2"])
        #expect(weakOwner == nil)
        _ = consume delegates
        #expect(weakMulticast == nil)
    }

    @Test func multicastsThatHoldEachOthersDelegatesWeaklyFormNoCycle() {
        final class Node: Listener {
            let name: String
            let delegates = MulticastDelegate<any Listener>()
            init(_ name: String) { self.name = name }
            func hear(_ event: Int) {}
        }
        weak var first: Node?
        weak var second: Node?
        do {
            let (a, b) = (Node("a"), Node("b"))
            (first, second) = (a, b)
            a.delegates.add(b)
            b.delegates.add(a)
            a.delegates.add(a)
            a.delegates.call { $0.hear(1) }
        }
        #expect(first == nil && second == nil)
    }

    @Test func deadDelegatesSlotsDoNotKeepTheStorageGrowing() {
        let delegates = MulticastDelegate<any Listener>()
        let kept = Recorder("kept", log: log)
        delegates.add(kept, retention: .strong)
        for round in 0..<100 {
            var batch = (0..<50).map { Recorder("\(round).\($0)", log: log) }
            for recorder in batch { delegates.add(recorder) }
            batch.removeAll()
            #expect(delegates.count == 1)
        }
        #expect(delegates.slotCapacity <= 128)
    }

    @Test func deadDelegatesOfAMulticastThatIsNeverCalledAreReclaimedBeforeItGrows() {
        // No pass finds the dead here: only the adds' searches before growing. At most 50 delegates are alive at
        // once, and a storage holds at most about three and a half times what the last search left.
        let delegates = MulticastDelegate<any Listener>()
        for round in 0..<100 {
            var batch = (0..<50).map { Recorder("\(round).\($0)", log: log) }
            for recorder in batch { delegates.add(recorder) }
            batch.removeAll()
        }
        #expect(delegates.slotCapacity <= 256)
    }
}
