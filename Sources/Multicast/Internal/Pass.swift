/// One walk over a multicast's delegates: what `call`, iteration, `count` and `isEmpty` share.
///
/// A pass takes the lock once, to count itself in as a reader of the current storage and note its slot count.
/// Then, without the lock, it reads slots in order, and for each one loads its key and, for a weak delegate,
/// makes one weak load (see ``_Slot/lend(_:dead:_:)``). A removal marks the slot's key in every storage that a
/// pass may read, so a delegate removed before its turn is skipped, and one that died before its turn fails
/// its weak load. Slots added later lie past `end`, so a delegate added during the pass is not called by it.
/// A pass ends with ``finish()``, which counts it out; the registry keeps the storage, and what its slots
/// own, until the last reader is out.
///
/// A pass retains neither the core nor the storage: whoever runs it keeps the core alive (the multicast, or
/// the iterator), and the core's registry keeps the storage alive while the pass reads it.
@usableFromInline
struct _Pass<Delegate> {
    @usableFromInline unowned(unsafe) let core: _Locked<_Registry<Delegate>>
    @usableFromInline let slots: UnsafeMutablePointer<_Slot<Delegate>>
    @usableFromInline let end: UnsafeMutablePointer<_Slot<Delegate>>
    /// The storage's ``_Readers`` word. The pass keeps no reference to the storage itself: one that it
    /// released after leaving could be the storage's last.
    @usableFromInline let readers: UnsafeMutablePointer<Int>

    @inlinable
    @inline(__always)
    init(_ core: _Locked<_Registry<Delegate>>) {
        self.core = core
        (slots, end, readers) = core.withLock { $0.enterPass() }
    }

    /// Ends the pass. If it was the last reader of a storage with garbage waiting for its readers, it collects
    /// the garbage.
    @inlinable
    @inline(__always)
    func finish() {
        if _Readers.leave(readers) {
            Self.collect(core)
        }
    }

    /// Frees what waited for the readers of a storage to leave; released outside the lock.
    @inlinable
    @inline(never)
    static func collect(_ core: _Locked<_Registry<Delegate>>) {
        let garbage = core.withLock { registry in
            var garbage = _Garbage<Delegate>()
            registry.collect(&garbage)
            return garbage
        }
        garbage.dispose()  // outside the lock
    }

    /// Whether meeting `dead` dead delegates makes reclaiming their slots pay for itself.
    @inlinable
    func shouldReclaim(dead: Int) -> Bool {
        dead > 0 && dead * 4 >= end - slots
    }
}
