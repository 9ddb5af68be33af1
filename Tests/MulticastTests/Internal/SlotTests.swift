import Testing

@testable import Multicast
@testable import _MulticastCore

/// Each case of the invariant that `_Slot` states: what a slot owns, what it lends without a count, and what a
/// transfer or a release leaves behind. Reference counts are read with the runtime's `_getRetainCount`; each
/// test compares counts of one object before and after, never absolute values.
@Suite struct SlotTests {
    final class Target: Listener {
        let name = "target"
        let onDeinit: () -> Void
        init(onDeinit: @escaping () -> Void = {}) { self.onDeinit = onDeinit }
        func hear(_ event: Int) {}
        deinit { onDeinit() }
    }

    /// The slots under test; the storage releases what they still own when the test ends.
    static let layout = _DelegateLayout(of: (any Listener).self)
    let memory = _Storage(capacity: 4, layout: layout)
    var storage: _StorageHandle { memory.slots }

    func occupy(_ position: Int, with target: Target, strong: Bool) {
        withUnsafePointer(to: target as any Listener) { value in
            storage.slot(at: position).occupy(
                withBitsOf: value, size: Self.layout.size, object: _Object(target),
                owner: _Object(target),
                key: _SlotKey(registration: Int64(position + 1), holding: strong ? .strong : .weak))
        }
        storage.count = max(storage.count, position + 1)
    }

    @Test func aWeakSlotHoldsNoCountOnItsDelegate() {
        let target = Target()
        let before = _getRetainCount(target)
        occupy(0, with: target, strong: false)
        #expect(_getRetainCount(target) == before)
        guard case .ownerAlive(let keeper) = storage.liveness(at: 0) else {
            Issue.record("a weak slot of a live object may not be called")
            return
        }
        #expect(ObjectIdentifier(keeper) == ObjectIdentifier(target))
        #expect(storage.address(at: 0) == UInt(bitPattern: Unmanaged.passUnretained(target).toOpaque()))
    }

    /// An owned slot, its owner pinned where the runtime allows it, or else held weakly: the two ways give the same
    /// answers, and each gives back what it took.
    @Test(arguments: [false, true])
    func anOwnedSlotEndsWithItsOwnerAndGivesBackWhatItTook(pinsOwner: Bool) throws {
        try #require(!pinsOwner || _OwnerPin.isAvailable)
        let target = Target()
        var owner: Target? = Target()
        let (delegateCount, ownerUnowned) = (_getRetainCount(target), _getUnownedRetainCount(owner!))
        withUnsafePointer(to: target as any Listener) { value in
            storage.slot(at: 0).occupy(
                withBitsOf: value, size: Self.layout.size, object: _Object(target),
                owner: _Object(owner!),
                key: _SlotKey(registration: 1, holding: .owned, pinsOwner: pinsOwner))
        }
        storage.count = 1
        #expect(storage.key(at: 0).pinsOwner == pinsOwner)
        #expect(_getRetainCount(target) == delegateCount + 1)
        #expect(_getUnownedRetainCount(owner!) == ownerUnowned + (pinsOwner ? 1 : 0))
        if case .ownerAlive(let keeper) = storage.liveness(at: 0) {
            #expect(ObjectIdentifier(keeper) == ObjectIdentifier(owner!))
        } else {
            Issue.record("an owned slot of a live owner may not be called")
        }
        #expect(!storage.slot(at: 0).ownerIsDead)
        owner = nil
        guard case .dead = storage.liveness(at: 0) else {
            Issue.record("an owned slot whose owner died may still be called")
            return
        }
        #expect(storage.slot(at: 0).ownerIsDead)
        let released = storage.release(at: 0)
        #expect(released.map(ObjectIdentifier.init) == ObjectIdentifier(target))
        extendLifetime(released)
    }

    @Test func aWeakSlotOfADeadObjectIsDeadAndKeepsItsAddress() {
        var target: Target? = Target()
        occupy(0, with: target!, strong: false)
        let address = storage.address(at: 0)
        target = nil
        guard case .dead(let key) = storage.liveness(at: 0) else {
            Issue.record("a weak slot of a deallocated object is not dead")
            return
        }
        #expect(key == storage.key(at: 0))
        #expect(storage.address(at: 0) == address)
    }

    @Test func aStrongSlotOwnsItsDelegateUntilReleased() {
        let target = Target()
        let before = _getRetainCount(target)
        occupy(0, with: target, strong: true)
        #expect(_getRetainCount(target) == before + 1)
        guard case .strong = storage.liveness(at: 0) else {
            Issue.record("a strong slot may not be called")
            return
        }
        do {
            let released = storage.release(at: 0)
            #expect(released === target)
        }
        #expect(storage.release(at: 0) == nil)  // released once only
        #expect(_getRetainCount(target) == before)
    }

    @Test func releasingAWeakSlotLeavesTheObjectAloneAndTheSlotUncallable() {
        let target = Target()
        occupy(0, with: target, strong: false)
        let before = _getRetainCount(target)
        #expect(storage.release(at: 0) == nil)
        #expect(_getRetainCount(target) == before)
        #expect(!storage.key(at: 0).isCallable)
        #expect(!storage.key(at: 0).ownsReferences)
        if case .unregistered = storage.liveness(at: 0) {} else { Issue.record("a released slot may be called") }
    }

    @Test func releasingAWeakSlotGivesBackItsWeakReference() {
        let target = Target()
        occupy(0, with: target, strong: false)
        let held = _getWeakRetainCount(target)
        #expect(storage.release(at: 0) == nil)
        #expect(_getWeakRetainCount(target) == held - 1)
    }

    /// Lent without a count, a delegate is deallocated during the body as soon as its last other reference
    /// goes: the caller's object for a weak slot, the storage's for a strong one.
    @Test func lendingTakesNoCountAndGivesTheResultBack() {
        for strong in [false, true] {
            let deallocated = CallLog()
            var target: Target? = Target { deallocated.append("target") }
            occupy(0, with: target!, strong: strong)
            let answer = storage.slot(at: 0).lend(as: (any Listener).self) { _ -> Int in
                if strong {
                    _ = storage.release(at: 0)  // the storage's reference, the last one
                }
                target = nil
                return deallocated.calls.count  // the delegate is not used after its deallocation
            }
            #expect(answer == 1)
            storage.count = 0
        }
    }

    @Test func lendingGivesTheBitsBackWhenTheBodyThrows() {
        let target = Target()
        occupy(0, with: target, strong: true)
        let before = _getRetainCount(target)
        #expect(throws: Stop(name: "body")) {
            try storage.slot(at: 0).lend(as: (any Listener).self) { _ in throw Stop(name: "body") }
        }
        #expect(_getRetainCount(target) == before)
        #expect(storage.release(at: 0) === target)
    }

    @Test func aCopyFromASlotThatPassesReadGivesTheTargetCountsOfItsOwn() {
        for strong in [false, true] {
            let target = Target()
            occupy(0, with: target, strong: strong)
            let before = _getRetainCount(target)
            let copyMemory = _Storage(capacity: 1, layout: Self.layout)
            defer { extendLifetime(copyMemory) }  // `copy` reads its memory
            let copy = copyMemory.slots
            var deferredReleases: [AnyObject] = []
            storage.slot(at: 0).transfer(
                to: copy.slot(at: 0), size: Self.layout.size, sourceIsRead: true, deferredReleases: &deferredReleases)
            copy.count = 1
            // With the Objective-C runtime, a weak delegate's object is held until after the lock (see `transfer`).
            #if _runtime(_ObjC)
            #expect(deferredReleases.map(ObjectIdentifier.init) == (strong ? [] : [ObjectIdentifier(target)]))
            #else
            #expect(deferredReleases.isEmpty)
            #endif
            deferredReleases.removeAll()
            #expect(_getRetainCount(target) == before + (strong ? 1 : 0))
            #expect(storage.key(at: 0) == copy.key(at: 0))
            #expect(storage.key(at: 0).ownsReferences)  // the source still owns what it owned
            _ = storage.release(at: 0)
            if case .unregistered = copy.liveness(at: 0) {
                Issue.record("the copy does not hold the delegate once the source is released")
            }
            if case .dead = copy.liveness(at: 0) { Issue.record("the copy lost the weak delegate") }
            #expect(copy.slot(at: 0).lend(as: (any Listener).self) { $0 === target })
            _ = copy.release(at: 0)
            #expect(_getRetainCount(target) == before - (strong ? 1 : 0))
        }
    }

    @Test func aMoveFromAnUnreadSlotLeavesTheSourceOwningNothing() {
        for strong in [false, true] {
            let target = Target()
            occupy(1, with: target, strong: strong)
            let before = _getRetainCount(target)
            var deferredReleases: [AnyObject] = []
            storage.slot(at: 1).transfer(
                to: storage.slot(at: 0), size: Self.layout.size, sourceIsRead: false,
                deferredReleases: &deferredReleases)
            deferredReleases.removeAll()
            #expect(_getRetainCount(target) == before)
            #expect(!storage.key(at: 1).ownsReferences)
            #expect(storage.release(at: 1) == nil)
            #expect(storage.key(at: 0).isCallable)
            #expect(storage.slot(at: 0).lend(as: (any Listener).self) { $0 === target })
            _ = storage.release(at: 0)
            storage.count = 0
        }
    }

    /// A storage that no pass reads, whose registrations all moved to a new storage, owns nothing, and is left
    /// with no slots, so that freeing it walks none; one with a removed slot that still owns its delegate keeps
    /// its slots, and releases that delegate as it is freed.
    @Test(arguments: [false, true])
    func movingEveryRegistrationOutLeavesNoSlotsUnlessOneStillOwns(aRemovedSlotOwns: Bool) {
        let moved = Target()
        let removed = Target()
        occupy(0, with: moved, strong: true)
        occupy(1, with: removed, strong: true)
        storage.markRemoved(at: 1)
        if !aRemovedSlotOwns { _ = storage.release(at: 1) }  // its count is given back here
        let before = _getRetainCount(removed)
        let target = _Storage(capacity: 4, layout: Self.layout)
        var deferredReleases: [AnyObject] = []
        storage.transferRegistrations(to: target.slots, sourceIsRead: false, deferredReleases: &deferredReleases)
        deferredReleases.removeAll()
        #expect(target.slots.count == 1)
        #expect(target.slots.slot(at: 0).lend(as: (any Listener).self) { $0 === moved })
        #expect(storage.count == (aRemovedSlotOwns ? 2 : 0))
        storage.releaseAll()
        #expect(_getRetainCount(removed) == before - (aRemovedSlotOwns ? 1 : 0))
    }

    @Test func compactingInPlaceHandsTheDroppedStrongDelegatesToTheCallerAndKeepsTheOthersInOrder() {
        let dropped = Target()
        let kept = Target()
        occupy(0, with: dropped, strong: true)
        occupy(1, with: kept, strong: true)
        let before = _getRetainCount(dropped)
        storage.markRemoved(at: 0)
        var objects: [AnyObject] = []
        storage.compactInPlace(&objects)
        // The count the slot owned is the caller's now, to let go of once the lock is.
        #expect(objects.count == 1 && objects.first === dropped)
        #expect(_getRetainCount(dropped) == before)
        objects.removeAll()
        #expect(_getRetainCount(dropped) == before - 1)
        #expect(storage.count == 1)
        #expect(storage.slot(at: 0).lend(as: (any Listener).self) { $0 === kept })
    }

    @Test func theLargestRegistrationNumberMakesAKeyThatKeepsItAndItsHolding() {
        let largest = _SlotKey.maximumRegistration
        for holding in [_Holding.weak, .strong, .owned] {
            let key = _SlotKey(registration: largest, holding: holding)
            #expect(key.registration == largest)
            #expect(key.holding == holding)
            #expect(key.isStrong == (holding != .weak))
            #expect(key.endsWithOwner == (holding != .strong))
            #expect(key.isCallable && key.ownsReferences)
            #expect(key.removed.registration == largest && !key.removed.isCallable)
            #expect(key.released.holding == holding && !key.released.ownsReferences)
        }
    }

    // Exit tests exist on these systems only.
    #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
    @Test func aRegistrationNumberOutOfRangeStopsTheProgram() async {
        await #expect(processExitsWith: .failure) { _ = _SlotKey(registration: 0, holding: .weak) }
        await #expect(processExitsWith: .failure) {
            _ = _SlotKey(registration: _SlotKey.maximumRegistration + 1, holding: .owned)
        }
    }
    #endif

    @Test func theFieldsThatPassesReadHaveTheOffsetsTheyAreReadAt() {
        #expect(MemoryLayout<_SlotState>.offset(of: \.key) == 0)
        #expect(MemoryLayout<_StorageHeader>.offset(of: \.count) == 0)
        #expect(MemoryLayout<_Ticket>.offset(of: \.readers) == 0)
    }
}
