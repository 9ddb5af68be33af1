/// What a pass tells its observer of the slots it skips: see ``_Pass/next(keeping:observing:)``.
@usableFromInline
package protocol _PassObserver: ~Copyable {
    /// The pass skipped the slot of `registration`, which ended with its owner.
    mutating func passSkippedDeadRegistration(_ registration: Int64)
}

/// The observer of a pass that nobody observes: it does nothing, and, inlined, costs nothing.
@frozen
@usableFromInline
package struct _Unobserved: _PassObserver {
    @inlinable
    @inline(always)
    package init() {}

    @inlinable
    @inline(always)
    package mutating func passSkippedDeadRegistration(_ registration: Int64) {}
}

/// One walk over a multicast's delegates: what every `call`, iteration, `count`, `isEmpty` and description is.
///
/// A pass counts itself in as a reader of the current storage and notes its slot count (``_Core/enterPass()``),
/// then asks each slot in order its ``_Slot/liveness``. A removal marks the slot's key in every storage that a pass
/// may read, so a delegate removed before its turn is skipped, and one that died before its turn fails its weak
/// load; a delegate added during the pass lies past `count`.
///
/// A pass ends, counting itself out, at ``finish()`` or in its `deinit`: noncopyable, it cannot be left open. It
/// retains neither the core nor the storage: whoever runs it keeps the core alive (the multicast, or the
/// iterator), and the registry keeps the storage and what its slots own until the last reader is out. Once
/// counted out, the storage may be freed at any moment, so ending is the last thing a pass does with it.
@frozen
@safe  // what it reads unsafely it reads in its own methods; its init is unsafe, and so is a slot it returns
@usableFromInline
package struct _Pass: ~Copyable {
    @usableFromInline
    unowned(unsafe) let core: _Core

    @usableFromInline
    let base: _Slot

    @usableFromInline
    let stride: Int

    /// The slots the pass visits: those in use when it started.
    @usableFromInline
    let count: Int

    /// The storage's ``_Readers`` word. The pass keeps no reference to the storage itself: one that it released
    /// after leaving could be the storage's last.
    @usableFromInline
    let readers: UnsafeMutablePointer<Int>

    @usableFromInline
    var position: Int

    /// The position of the first slot whose registration the pass found ended, or `count` if it found none.
    @usableFromInline
    var firstEnded: Int

    /// Starts a pass over `core`, which the caller keeps alive until the pass has ended: the pass holds it
    /// unretained.
    @unsafe
    @inlinable
    @inline(always)
    package init(_ core: _Core) {
        unsafe self.core = core
        unsafe (base, stride, count, readers) = unsafe core.enterPass()
        position = 0
        firstEnded = count
    }

    /// The slot of the next delegate that the pass may call; nil after the last. Skips removed slots, and marks
    /// those of registrations that ended with their owners, for the registry to unregister as the pass ends.
    ///
    /// `keeper` keeps the delegate alive until the next call, while it is lent (``_Slot/lend(as:_:)``) or copied
    /// (``_Slot/copyOfDelegate(as:)``): it receives the owner that the slot loaded (a weak delegate is its own), or
    /// nil where the storage keeps the delegate. It is the caller's variable: a reference in the pass would cost an
    /// optimized build a destroy through value witnesses at the end of every call.
    ///
    /// The previous keeper is let go of first, before any slot is read: if it held the last reference to the
    /// delegate, its deinit runs there, and what it removes must not be called.
    @inlinable
    @inline(always)
    package mutating func next(keeping keeper: inout AnyObject?) -> _Slot? {
        var unobserved = _Unobserved()
        return unsafe next(keeping: &keeper, observing: &unobserved)
    }

    /// ``next(keeping:)``, telling `observer` of each registration it skips because it ended with its owner (what a
    /// traced call learns of the delegates gone); with ``_Unobserved``, inlined, it is ``next(keeping:)``.
    @inlinable
    @inline(always)
    package mutating func next<Observer: _PassObserver & ~Copyable>(
        keeping keeper: inout AnyObject?, observing observer: inout Observer
    ) -> _Slot? {
        // A store, not `if keeper != nil`: an unoptimized build copies the keeper to compare it, a retain and a
        // release per weak delegate, where the store costs a release call of nil per strong delegate.
        keeper = nil
        while position < count {
            let slot = unsafe base.advanced(by: position, stride: stride)
            position += 1
            switch unsafe slot.liveness {
            case .strong:
                return unsafe slot
            case .ownerAlive(let owner):
                keeper = consume owner
                return unsafe slot
            case .dead(let key):
                unsafe noteEnded(slot, key: key)
                observer.passSkippedDeadRegistration(key.registration)
            case .unregistered: break
            }
        }
        return nil
    }

    /// Marks `slot`, the one before ``position``, whose registration the pass found ended, with `key`, for the
    /// registry to unregister as the pass ends. Out of line: on the path of an ended registration only.
    @usableFromInline
    @inline(never)
    mutating func noteEnded(_ slot: _Slot, key: _SlotKey) {
        if !key.isEnded { unsafe slot.markEnded() }
        if firstEnded == count { firstEnded = position - 1 }
    }

    /// Marks every registration from ``position`` on that has ended with its owner, as ``next(keeping:)`` would,
    /// without giving any slot: the search that an add makes before the storage grows (see
    /// ``_Core/reclaimEndedRegistrations()``). A slot's weak load, or a pinned owner's, and nothing else per slot.
    mutating func markEndedRegistrations() {
        if let first = unsafe _Slot.markEnded(base: base, stride: stride, from: position, to: count),
            firstEnded == count
        {
            firstEnded = first
        }
        position = count
    }

    /// A strong reference to the next delegate that the pass may call, for code that keeps it; nil after the
    /// last. The pass keeps no other reference to it.
    @inlinable
    @inline(always)
    package mutating func nextDelegate<Delegate>(as type: Delegate.Type) -> Delegate? {
        var keeper: AnyObject?
        guard let slot = unsafe next(keeping: &keeper) else { return nil }
        if unsafe !slot.key.isStrong {  // weak: its keeper is its object (an owned one's is the owner)
            // The keeper is the delegate's object, loaded with a count of its own: the delegate's bits take it
            // over, with no retain and no release (the bits in the slot stay uncounted: see `_Slot`).
            var delegate: Delegate? = nil
            unsafe _Slot.fill(&delegate, withBitsAt: slot.delegate)
            unsafe _Slot.forget(&keeper)
            return delegate
        }
        let delegate = unsafe slot.copyOfDelegate(as: Delegate.self)
        extendLifetime(keeper)  // until the copy is made
        return delegate
    }

    /// Ends the pass now, as its `deinit` would, which an unoptimized build calls where it inlines this.
    @inlinable
    @inline(always)
    package consuming func finish() {
        end()
        discard self
    }

    // Declared in the public module interface, where `finish()`'s inlined `discard self` needs to see that there
    // is a deinit to skip.
    @usableFromInline
    deinit {
        end()
    }

    /// Counts the pass out of its storage. If it found registrations ended, it unregisters them first, under the
    /// lock, and counts itself out there (see ``_Core/passEnded(findingEndedIn:stride:from:to:readers:)``); else,
    /// if it was the last reader of a storage whose registry waits for its readers, it collects.
    @inlinable
    @inline(always)
    func end() {
        if firstEnded < count {
            unsafe core.passEnded(
                findingEndedIn: base, stride: stride, from: firstEnded, to: position, readers: readers)
        } else if unsafe _Readers.leave(readers) {
            unsafe core.lastReaderLeft()
        }
    }
}
