import _MulticastShims

@usableFromInline
struct _StorageHeader {
    /// Slots in use; slots `0..<count` are occupied and in registration order. Written under the lock.
    @usableFromInline
    var count: Int

    /// The ``_Readers`` word: changed by passes without the lock.
    @usableFromInline
    var readers: Int

    @inlinable
    init() {
        count = 0
        readers = 0
    }
}

/// The count of passes that read a storage, and a flag that asks the last of them to collect garbage, in one
/// word that passes change with atomic operations.
///
/// A pass enters under the lock and leaves without it. So, with the lock held, the count can only go down;
/// once it is zero no pass reads the storage, and none can start reading it while the lock is held.
@usableFromInline
enum _Readers {
    /// Set when the registry has work that waits for the storage's readers: the last one to leave collects it.
    @usableFromInline
    static var collectBit: Int { Int.min }

    /// Counts a pass in; call it with the lock held.
    @inlinable
    @inline(__always)
    static func enter(_ word: UnsafeMutablePointer<Int>) {
        _ = _multicast_fetch_add_relaxed(word, 1)
    }

    /// Counts a pass out, with release ordering so that its reads happen before whatever the registry does
    /// once the count is zero. Returns whether this pass was the last reader and must collect.
    @inlinable
    @inline(__always)
    static func leave(_ word: UnsafeMutablePointer<Int>) -> Bool {
        _multicast_fetch_sub_release(word, 1) == collectBit | 1
    }

    /// Whether no pass reads the storage. Call it with the lock held.
    @inlinable
    static func isUnread(_ word: UnsafeMutablePointer<Int>) -> Bool {
        _multicast_load_acquire(word) & ~collectBit == 0
    }

    /// Whether no pass reads the storage; if one does, sets the flag, so that the last to leave collects.
    /// Call it with the lock held.
    @inlinable
    static func isUnreadElseCollectOnLeave(_ word: UnsafeMutablePointer<Int>) -> Bool {
        if _multicast_load_acquire(word) == 0 { return true }
        guard _multicast_fetch_or_acquire(word, collectBit) & ~collectBit == 0 else { return false }
        _multicast_store_relaxed(word, 0)  // the last reader left meanwhile: no one is left to collect
        return true
    }
}

/// The delegates of one multicast, in registration order.
///
/// A pass (a `call`, an iteration, `count`) enters the current storage under the lock and then reads slots
/// `0..<count` of it without the lock. While passes read it, slots below `count` change only in their keys;
/// a slot is released, or the storage freed, only when no pass reads it. Appending past `count` is always
/// allowed: no pass reads there. The registry keeps every storage alive while a pass reads it, so passes
/// do not retain it.
@usableFromInline
final class _Storage<Delegate>: ManagedBuffer<_StorageHeader, _Slot<Delegate>> {
    @usableFromInline
    static func make(minimumCapacity: Int) -> _Storage<Delegate> {
        let buffer = Self.create(minimumCapacity: Swift.max(minimumCapacity, 1)) { _ in _StorageHeader() }
        return unsafeDowncast(buffer, to: _Storage<Delegate>.self)
    }

    /// The header, read and written through a pointer: `header`, a stored class property, would cost a
    /// dynamic exclusivity check on every access.
    @inlinable
    var head: UnsafeMutablePointer<_StorageHeader> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    /// The first slot; valid for as long as the storage is alive.
    @inlinable
    var slots: UnsafeMutablePointer<_Slot<Delegate>> {
        withUnsafeMutablePointerToElements { $0 }
    }

    /// The ``_Readers`` word.
    @inlinable
    var readers: UnsafeMutablePointer<Int> {
        withUnsafeMutablePointerToHeader { $0.pointer(to: \.readers)! }
    }

    deinit {
        releaseSlots()
    }
}

extension _Storage {
    /// Destroys what the slots own; no pass may be reading the storage.
    @inlinable
    func releaseSlots() {
        let slots = slots
        for position in 0..<head.pointee.count {
            _ = _Slot.release(slots + position)
        }
        head.pointee.count = 0
    }

    /// The position of the slot of registration `registration`, if this storage holds it. Slots are in
    /// registration order, so this is a binary search.
    @usableFromInline
    func position(ofRegistration registration: Int) -> Int? {
        var (low, high) = (0, head.pointee.count)
        while low < high {
            let middle = (low + high) / 2
            let found = _Slot.loadKey(slots + middle).registration
            if found == registration { return middle }
            if found < registration { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
