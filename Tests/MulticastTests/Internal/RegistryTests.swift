import MulticastChecks
import Testing

@testable import Multicast
@testable import _MulticastCore

/// What a removal leaves behind while passes read the delegates: a removed delegate is skipped at once, and
/// what it held, or an older list of delegates, is released once no pass reads it.
@Suite struct RegistryTests {
    let log = CallLog()

    @Test func removalDuringAPassOverAnOlderStorageIsSeen() {
        let delegates = MulticastDelegate<any Listener>()
        let all = (0..<40).map { Recorder("\($0)", log: log) }
        for delegate in all { delegates.add(delegate) }
        all[0].onHear = { _ in
            // Drop enough delegates that the storage is rebuilt while this pass reads the old one...
            for delegate in all[1..<30] { delegates.remove(delegate) }
            #expect(delegates.retiredStorages == 1)
            // ...then remove one more, which the pass finds in its older storage.
            delegates.remove(all[35])
        }
        delegates.call { $0.hear(1) }
        #expect(log.calls == (0..<40).filter { $0 == 0 || ($0 >= 30 && $0 != 35) }.map(String.init))
    }

    @Test func olderStorageIsFreedWhenItsLastPassEnds() {
        let delegates = MulticastDelegate<any Listener>()
        let all = (0..<40).map { Recorder("\($0)", log: log) }
        for delegate in all { delegates.add(delegate) }
        var retiredDuringThePass = 0
        all[0].onHear = { _ in
            for delegate in all[1..<30] { delegates.remove(delegate) }
            retiredDuringThePass = delegates.retiredStorages
        }
        delegates.call { $0.hear(1) }
        #expect(retiredDuringThePass == 1)
        #expect(delegates.retiredStorages == 0)
    }

    @Test func strongDelegateRemovedDuringAPassIsReleasedByItsLastPass() {
        let delegates = MulticastDelegate<any Listener>()
        let victim = addStrongRecorder("victim", to: delegates, log: log)
        var aliveAfterTheInnerPass = false
        let remover = Recorder("remover", log: log) { recorder in
            guard recorder.heard.count == 1 else { return }
            delegates.remove(victim()!)
            delegates.call { $0.hear(2) }  // a nested pass ends; the outer one still reads the storage
            aliveAfterTheInnerPass = victim() != nil
        }
        delegates.add(remover)
        delegates.call { $0.hear(1) }
        #expect(aliveAfterTheInnerPass)
        #expect(victim() == nil)
    }

    /// The last pass over a strong delegate removed during it releases the delegate after letting go of the
    /// lock: the delegate's deinit may use the multicast.
    @Test func aStrongDelegateReleasedByTheLastPassMayUseTheMulticastInItsDeinit() {
        final class Counter: Listener {
            let name = "counter"
            let delegates: MulticastDelegate<any Listener>
            let counts: CallLog
            init(_ delegates: MulticastDelegate<any Listener>, counts: CallLog) {
                self.delegates = delegates
                self.counts = counts
            }
            func hear(_ event: Int) {}
            deinit {
                let probe = Recorder("probe", log: CallLog())
                delegates.add(probe)  // takes the lock: it must be free
                counts.append("\(delegates.count)")
                delegates.remove(probe)
            }
        }
        let delegates = MulticastDelegate<any Listener>()
        let counts = CallLog()
        weak var counter: Counter?
        let remover = Recorder("remover", log: log) { _ in
            if let counter { delegates.remove(counter) }  // before its turn, while the pass reads it
        }
        delegates.add(remover)
        do {
            let strong = Counter(delegates, counts: counts)
            counter = strong
            delegates.add(strong, retention: .strong)  // the multicast holds the only reference
        }
        delegates.call { $0.hear(1) }
        #expect(counter == nil)
        #expect(counts.calls == ["2"])
        #expect(log.calls == ["remover"])
        extendLifetime(remover)
    }

    /// A storage's ticket, which passes count themselves into, outlives the storage, and goes to a later one once
    /// the storage is freed: however often the delegates are rebuilt, a multicast keeps as many tickets as it
    /// ever had storages at once.
    @Test func aFreedStorageGivesItsTicketToALaterOne() {
        let delegates = MulticastDelegate<any Listener>()
        let all = (0..<100).map { Recorder("\($0)", log: log) }
        defer { extendLifetime(all) }
        var storage = delegates.storageIdentity
        var replacements = 0
        for _ in 0..<20 {
            for delegate in all {
                delegates.add(delegate)
                if delegates.storageIdentity != storage {
                    storage = delegates.storageIdentity
                    replacements += 1
                }
            }
            for delegate in all { delegates.remove(delegate) }
        }
        #expect(replacements > 20)
        #expect(delegates.ticketsAllocated == 2)  // the current storage's, and the one each growth fills

        // Storages that passes still read keep their tickets until their last pass ends.
        var iterators = [delegates.makeIterator()]
        for delegate in all {
            delegates.add(delegate)
            iterators.append(delegates.makeIterator())
        }
        let whileRead = delegates.ticketsAllocated
        #expect(whileRead > 2)
        iterators.removeAll()
        for _ in 0..<20 {
            for delegate in all { delegates.remove(delegate) }
            for delegate in all { delegates.add(delegate) }
        }
        #expect(delegates.ticketsAllocated == whileRead)
    }

    /// A pass that is not finished by hand ends where it goes out of scope, and the removal that waited for it
    /// is collected then: a new walk cannot leave the storage pinned.
    @Test func aPassEndsWhereItGoesOutOfScope() {
        let delegates = MulticastDelegate<any Listener>()
        let delegate = addStrongRecorder("strong", to: delegates, log: log)
        do {
            let pass = _Pass(delegates._core)
            #expect(_Readers.isUnread(pass.readers) == false)
            delegates.remove(delegate()!)
            #expect(delegate() != nil)  // the pass may still read it
        }
        #expect(delegates.readersWord == 0)
        #expect(delegate() == nil)  // the pass, as it ended, released it
    }

    /// A delegate removed while it is the newest, the way a screen goes away after the ones before it, leaves
    /// no vacancy behind when no pass reads the storage; while a pass reads it, its slot stays until later.
    @Test(arguments: [Retention.weak, .strong])
    func removingTheNewestDelegateLeavesNoVacancyUnlessAPassReads(retention: Retention) {
        let delegates = MulticastDelegate<any Listener>()
        let all = (0..<10).map { Recorder("\($0)", log: log) }
        defer { extendLifetime(all) }
        for delegate in all { delegates.add(delegate) }
        let newest = Recorder("newest", log: log)
        delegates.add(newest, retention: retention)
        delegates.remove(newest)
        #expect(delegates.slotsInUse == 10)
        delegates.add(newest, retention: retention)
        do {
            let pass = _Pass(delegates._core)
            delegates.remove(newest)
            #expect(delegates.slotsInUse == 11)  // the pass may still read it
            extendLifetime(pass)
        }
        delegates.add(newest, retention: retention)
        #expect(delegates.slotsInUse == 12)
        delegates.call { $0.hear(1) }
        #expect(log.calls == (0..<10).map(String.init) + ["newest"])
    }

    @Test func droppedIteratorEndsItsPass() {
        let delegates = MulticastDelegate<any Listener>()
        let delegate = addStrongRecorder("strong", to: delegates, log: log)
        var iterator: MulticastDelegate<any Listener>.Iterator? = delegates.makeIterator()
        #expect(iterator?.next()?.name == "strong")
        iterator = nil  // before its end: its pass must end all the same
        #expect(delegates.remove(delegate()!))
        #expect(delegate() == nil)  // no pass reads the storage: released at once
    }

    @Test func removedWeakSlotsWaitForTheNextChangeInsteadOfTheLastPass() {
        let delegates = MulticastDelegate<any Listener>()
        let (first, second, late) = (
            Recorder("first", log: log), Recorder("second", log: log), Recorder("late", log: log)
        )
        first.onHear = { _ in delegates.remove(second) }
        delegates.add(first)
        delegates.add(second)
        delegates.call { $0.hear(1) }
        #expect(log.calls == ["first"])
        #expect(delegates.pendingReleases == 1)  // the pass ended without taking the lock again
        delegates.add(late)
        #expect(delegates.pendingReleases == 0)
    }

    /// A strong delegate removed while a pass reads asks the last reader to collect. If, after that reader
    /// left and before it takes the lock, another change compacts the storage in place, the compaction does
    /// what was to be collected, and the request must go with it: otherwise every later pass that leaves alone
    /// would take the lock a second time.
    @Test func compactionInPlaceForgetsTheLastReadersRequestToCollect() {
        let delegates = MulticastDelegate<any Listener>()
        let all = (0..<40).map { Recorder("\($0)", log: log) }
        for delegate in all { delegates.add(delegate, retention: .strong) }
        // A reader counted in by hand, not a `_Pass`, which would count itself out again as it ends.
        let readers = delegates._core.withLock { $0.enterPass() }.readers
        for delegate in all[0..<16] { delegates.remove(delegate) }
        #expect(delegates.readersWord == _Readers.collectBit | 1)  // the removals wait for it
        #expect(_Readers.leave(readers))  // it leaves, to collect, but has not taken the lock yet...
        let storage = delegates.storageIdentity
        delegates.remove(all[16])  // ...when a removal finds the storage unread and compacts it
        #expect(delegates.storageIdentity == storage)  // in place
        #expect(delegates.pendingReleases == 0)
        #expect(delegates.readersWord == 0)
        let later = delegates._core.withLock { $0.enterPass() }.readers
        #expect(!_Readers.leave(later))  // a later pass that leaves alone has nothing to collect
        #expect(delegates.count == 23)
    }

    @Test func churnWithAPassAlwaysOpenKeepsMemoryBounded() {
        let delegates = MulticastDelegate<any Listener>()
        let all = (0..<100).map { Recorder("\($0)", log: log) }
        defer { extendLifetime(all) }
        for delegate in all { delegates.add(delegate) }
        var random = SplitMix64(seed: 7)
        var open = delegates.makeIterator()
        var largest = (capacity: 0, retired: 0)
        for _ in 0..<200 {
            for _ in 0..<50 {
                let delegate = all.randomElement(using: &random)!
                delegates.remove(delegate)
                delegates.add(delegate)
            }
            // A permanent caller: the next pass starts before the last one ends.
            let next = delegates.makeIterator()
            open = next
            largest.capacity = max(largest.capacity, delegates.slotCapacity)
            largest.retired = max(largest.retired, delegates.retiredStorages)
        }
        #expect(largest.capacity <= 2 * all.count)
        #expect(largest.retired <= 2)
        #expect(delegates.count == 100)
        withExtendedLifetime(open) {}
    }
}
