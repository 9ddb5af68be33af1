/// What a storage keeps at the start of its memory: the words that a pass reads or changes.
@usableFromInline
struct _StorageHeader {
    /// The ``_Readers`` word: changed by passes without the lock. The first field, so that its address is the
    /// header's.
    @usableFromInline
    var readers = 0

    /// Slots in use; slots `0..<count` are occupied and in registration order. Written under the lock.
    @usableFromInline
    var count = 0
}

/// The memory of one multicast's delegates, in registration order: it owns what ``_Slots``, its handle, reads
/// and writes.
///
/// A pass (a `call`, an iteration, `count`) enters the current storage under the lock and then reads slots
/// `0..<count` of it without the lock. While passes read it, slots below `count` change only in their keys;
/// a slot is released, moved or rewritten only when no pass reads it. Appending past `count` is always
/// allowed: no pass reads there. The registry keeps every storage alive while a pass reads it, so passes do
/// not retain it.
///
/// One allocation holds the header, then the slot states, then the delegates' bits, each array at the
/// alignment of its type; its addresses never change.
@safe  // it owns its memory, and frees it once, in deinit
@usableFromInline
final class _Storage {
    /// The pointer work on this storage's memory.
    @usableFromInline
    let slots: _Slots

    init(capacity: Int, layout: _DelegateLayout) {
        let capacity = Swift.max(capacity, 1)
        func rounded(_ offset: Int, to alignment: Int) -> Int { (offset + alignment - 1) & -alignment }
        let statesOffset = rounded(MemoryLayout<_StorageHeader>.stride, to: MemoryLayout<_SlotState>.alignment)
        let delegatesOffset = rounded(statesOffset + capacity * MemoryLayout<_SlotState>.stride, to: layout.alignment)
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: delegatesOffset + capacity * layout.stride,
            alignment: Swift.max(
                MemoryLayout<_StorageHeader>.alignment, MemoryLayout<_SlotState>.alignment, layout.alignment))
        slots = unsafe _Slots(
            header: memory.initializeMemory(as: _StorageHeader.self, repeating: _StorageHeader(), count: 1),
            base: _Slot(
                state: (memory + statesOffset).bindMemory(to: _SlotState.self, capacity: capacity),
                delegate: memory + delegatesOffset),
            layout: layout, capacity: capacity)
    }

    deinit {
        slots.releaseAll()
        unsafe UnsafeMutableRawPointer(slots.header).deallocate()
    }
}

/// Every pointer operation on a storage's slots: a value of pointers and numbers only, which code copies and
/// calls without retaining anything, in an unoptimized build too.
///
/// Its one hazard is its lifetime: it is valid while its ``_Storage`` lives, which the registry keeps beside it,
/// and a pass, which reads it, keeps in the registry's retired storages (see ``_DeferredRelease``). Within that, its
/// bookkeeping is safe: every slot it reaches by position is checked against the capacity (``slot(at:)``), and
/// what hands out memory (``base``, ``header``, ``readers``, ``slot(at:)``, ``append(bitsOf:object:owner:key:)``)
/// is unsafe to use.
@safe
@usableFromInline
struct _Slots {
    @usableFromInline
    let header: UnsafeMutablePointer<_StorageHeader>

    /// The first slot; slot `position` is ``slot(at:)``.
    @usableFromInline
    let base: _Slot

    /// How the delegates' bits are laid out.
    @usableFromInline
    let layout: _DelegateLayout

    /// Slots the storage has room for.
    @usableFromInline
    let capacity: Int

    @usableFromInline
    init(header: UnsafeMutablePointer<_StorageHeader>, base: _Slot, layout: _DelegateLayout, capacity: Int) {
        unsafe self.header = unsafe header
        unsafe self.base = unsafe base
        self.layout = layout
        self.capacity = capacity
    }

    /// Slots in use; those at `0..<count` are occupied.
    @inlinable
    @inline(always)
    var count: Int {
        get { unsafe header.pointee.count }
        nonmutating set { unsafe header.pointee.count = newValue }
    }

    /// The ``_Readers`` word.
    @inlinable
    @inline(always)
    var readers: UnsafeMutablePointer<Int> {
        unsafe UnsafeMutableRawPointer(header).assumingMemoryBound(to: Int.self)
    }

    /// Whether no pass reads the storage (see ``_Readers/isUnread(_:)``). Call it with the lock held.
    @inlinable
    @inline(always)
    var isUnread: Bool {
        unsafe _Readers.isUnread(readers)
    }

    /// Arranges for the work that waits for the storage's readers (see ``_Readers/collectNowOrByLastReader(_:)``).
    @inlinable
    @inline(always)
    func collectNowOrByLastReader() -> _Readers.WhenToCollect {
        unsafe _Readers.collectNowOrByLastReader(readers)
    }

    /// Clears the readers word's collect bit of a storage that no pass reads (see ``_Readers/forgetCollect(_:)``).
    @inlinable
    @inline(always)
    func forgetCollect() {
        unsafe _Readers.forgetCollect(readers)
    }

    /// The slot at `position`, which must be below the capacity.
    @inlinable
    @inline(always)
    func slot(at position: Int) -> _Slot {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: capacity), "a slot past the storage's capacity")
        return unsafe base.advanced(by: position, stride: layout.stride)
    }

    /// The key of the slot at `position`.
    @inlinable
    @inline(always)
    func key(at position: Int) -> _SlotKey {
        unsafe slot(at: position).key
    }

    /// The address of the owner of the slot at `position`, read without touching the owner.
    @inlinable
    @inline(always)
    func address(at position: Int) -> UInt {
        unsafe slot(at: position).address
    }

    /// Whether a pass may call the delegate at `position` (see ``_Slot/liveness``).
    @inlinable
    @inline(always)
    func liveness(at position: Int) -> _Liveness {
        unsafe slot(at: position).liveness
    }

    /// Whether the slot at `position` holds a live registration of the object at `address`, which the caller
    /// keeps alive (see ``_Slot/isLiveRegistration(ofOwnerAt:)``).
    @inlinable
    @inline(always)
    func isLiveRegistration(at position: Int, ofOwnerAt address: UInt) -> Bool {
        unsafe slot(at: position).isLiveRegistration(ofOwnerAt: address)
    }

    /// Whether the owner of the registration at `position`, which ends with it, has died (see
    /// ``_Slot/ownerIsDead``).
    @inlinable
    @inline(always)
    func ownerIsDead(at position: Int) -> Bool {
        unsafe slot(at: position).ownerIsDead
    }

    /// Destroys what the slot at `position` owns (see ``_Slot/release()``).
    @inlinable
    @inline(always)
    func release(at position: Int) -> AnyObject? {
        unsafe slot(at: position).release()
    }

    /// Appends a registration: the bits of a delegate at `value`, whose object is `object`, registered by
    /// `owner`. There must be room.
    @unsafe
    @inlinable
    @inline(always)
    func append(
        bitsOf value: UnsafeRawPointer, object: Unmanaged<AnyObject>, owner: Unmanaged<AnyObject>, key: _SlotKey
    ) {
        precondition(count < capacity, "appending to a full storage")
        unsafe slot(at: count).occupy(withBitsOf: value, size: layout.size, object: object, owner: owner, key: key)
        count += 1
    }

    /// Drops the last slot, which owns nothing; no pass may be reading the storage.
    @inlinable
    @inline(always)
    func dropLast() {
        count -= 1
    }

    /// The position of the slot of registration `registration`, if this storage holds it. Slots are in
    /// registration order, so this is a binary search.
    func position(ofRegistration registration: Int64) -> Int? {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            let found = key(at: middle).registration
            if found == registration { return middle }
            if found < registration { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Marks the slot of registration `registration` removed, if this storage holds it and it is not already.
    @usableFromInline
    func markRemoved(registration: Int64) {
        if let position = position(ofRegistration: registration) {
            markRemoved(at: position)
        }
    }

    /// Marks the slot at `position` removed, so that no pass calls it, unless it is already.
    @inlinable
    @inline(always)
    func markRemoved(at position: Int) {
        let slot = unsafe slot(at: position)
        let key = unsafe slot.key
        if key.isCallable { unsafe slot.storeKey(key.removed) }
    }
}
