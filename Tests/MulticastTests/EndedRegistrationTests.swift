import MulticastChecks
import Testing

@testable import Multicast

/// What a registration leaves behind once it has ended with its owner (a weak delegate deallocated, or the owner of
/// an owned one), and when it goes: the first call, iteration, `count` or `isEmpty` that reaches its slot releases
/// it as it ends, whatever else the storage holds; and the search that an add makes before the storage grows.
@Suite struct EndedRegistrationTests {
    /// An owner that does nothing but die.
    final class Owner {}

    /// What the threaded test's delegates are: a multicast of a `Sendable` protocol may be shared by threads.
    protocol Hearing: Listener, Sendable {}

    /// A delegate that counts its deinit.
    final class Counted: Hearing {
        let name = "counted"
        let deinits: DeinitCount
        init(_ deinits: DeinitCount) { self.deinits = deinits }
        func hear(_ event: Int) {}
        deinit { deinits.increment() }
    }

    /// How many `Counted` delegates have been deallocated.
    final class DeinitCount: @unchecked Sendable {
        private let lock = CheckLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// The ways of reaching every slot that a user has: each must release what an ended registration left.
    enum Walk: CaseIterable {
        case call, forIn, count, isEmpty

        func run(over delegates: MulticastDelegate<any Listener>) {
            switch self {
            case .call: delegates.call { $0.hear(1) }
            case .forIn: for delegate in delegates { delegate.hear(1) }
            case .count: _ = delegates.count
            case .isEmpty: _ = delegates.isEmpty
            }
        }
    }

    /// Twelve owned registrations; ten owners remove theirs, and the last two owners die. The removed slots
    /// outnumber the ended registrations, and the next call must still release both delegates and both owners'
    /// memory.
    @Test(arguments: Walk.allCases)
    func deadOwnersAmongRemovedSlotsAreReleasedByTheNextWalk(walk: Walk) {
        let delegates = MulticastDelegate<any Listener>()
        let deinits = DeinitCount()
        var owners = (0..<12).map { _ in Owner() }
        for owner in owners { delegates.add(Counted(deinits), ownedBy: owner) }
        for owner in owners.prefix(10) { delegates.remove(ownedBy: owner) }
        #expect(deinits.value == 10)
        owners.removeAll()  // the last two owners die
        #expect(delegates.slotsOwningReferences.all == 2)  // nothing has reached them yet
        walk.run(over: delegates)
        #expect(deinits.value == 12)
        #expect(delegates.slotsOwningReferences.all == 0)
        #expect(delegates.slotsOwningReferences.pinningOwners == 0)
        #expect(delegates.count == 0)
    }

    /// One weak delegate of a hundred dies: its slot is unregistered and released by the next call, not kept for as
    /// long as calls pass over it.
    @Test(arguments: Walk.allCases)
    func aDeadWeakDelegateAmongLiveOnesIsReleasedByTheNextWalk(walk: Walk) {
        let delegates = MulticastDelegate<any Listener>()
        let log = CallLog()
        var recorders: [Recorder?] = (0..<101).map { Recorder("r\($0)", log: log) }
        for recorder in recorders { delegates.add(recorder!) }
        recorders[0] = nil  // dies; first, so that `isEmpty`, which stops at the first live delegate, reaches it
        #expect(delegates.slotsOwningReferences.all == 101)
        walk.run(over: delegates)
        #expect(delegates.slotsOwningReferences.all == 100)
        #expect(delegates.count == 100)
        extendLifetime(recorders)
    }

    /// A call that stops early releases the ended registrations it passed, and leaves the others to the next.
    @Test func aCallThatStopsEarlyReleasesWhatItPassed() {
        let delegates = MulticastDelegate<any Listener>()
        let deinits = DeinitCount()
        let log = CallLog()
        var owners = (0..<2).map { _ in Owner() }
        let (first, last) = (Recorder("first", log: log), Recorder("last", log: log))
        defer { extendLifetime((first, last)) }
        delegates.add(Counted(deinits), ownedBy: owners[0])
        delegates.add(first)
        delegates.add(Counted(deinits), ownedBy: owners[1])
        delegates.add(last)
        owners.removeAll()
        #expect(delegates.first { $0.name == "first" } === first)
        #expect(deinits.value == 1)
        delegates.call { $0.hear(1) }
        #expect(deinits.value == 2)
        #expect(log.calls == ["first", "last"])
    }

    /// A call made while another is under way releases the ended registration's delegate when the last of them ends:
    /// the outer call still reads its slot.
    @Test func aNestedCallReleasesWhatTheOuterCallStillReadsWhenTheOuterEnds() {
        let delegates = MulticastDelegate<any Listener>()
        let deinits = DeinitCount()
        let log = CallLog()
        var owner: Owner? = Owner()
        let nested = Box(false)
        let caller = Recorder("caller", log: log) { _ in
            guard !nested.value else { return }
            nested.value = true
            owner = nil
            delegates.call { $0.hear(2) }  // finds the ended registration, and unregisters it
            #expect(deinits.value == 0)  // the outer call may still read its slot
        }
        defer { extendLifetime(caller) }
        delegates.add(caller)
        delegates.add(Counted(deinits), ownedBy: owner!)
        delegates.call { $0.hear(1) }
        #expect(deinits.value == 1)
        #expect(delegates.slotsOwningReferences.all == 1)
    }

    /// Owners die on other threads while a thread calls: no call reaches a delegate whose owner is dead, and one call
    /// made after every owner has died releases every delegate and every owner's memory.
    @Test func ownersDyingOnOtherThreadsDuringCallsAreReleasedByTheNextCall() {
        let delegates = MulticastDelegate<any Hearing>()
        let deinits = DeinitCount()
        let owners = Locked((0..<400).map { _ in Owner() as Owner? })
        for index in 0..<400 { delegates.add(Counted(deinits), ownedBy: owners.withValue { $0[index]! }) }
        let done = Locked(false)
        onThreads(3) { thread in
            if thread == 0 {
                while !done.withValue({ $0 }) { delegates.call { $0.hear(1) } }
            } else {
                // Two threads release every owner, interleaved, while the first calls.
                for index in stride(from: thread - 1, to: 400, by: 2) {
                    let owner = owners.withValue { owners -> Owner? in
                        defer { owners[index] = nil }
                        return owners[index]
                    }
                    extendLifetime(owner)  // the last reference, released here
                }
                if thread == 2 { done.withValue { $0 = true } }
            }
        }
        delegates.call { $0.hear(1) }
        #expect(deinits.value == 400)
        #expect(delegates.slotsOwningReferences.all == 0)
        #expect(delegates.count == 0)
    }
}

/// A value under a lock of its own, for threads to share.
final class Locked<Value>: @unchecked Sendable {
    private let lock = CheckLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withValue<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
