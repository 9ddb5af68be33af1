/// One walk over a multicast's delegates: what `call`, iteration, `count` and `isEmpty` share.
///
/// A pass takes the lock once, to retain the current storage and note its slot count and the core's version
/// (which every removal advances). Then, without the lock, it reads slots in order: one weak load per weak
/// delegate, nothing for a strong one (the storage it holds keeps those alive). Slots added later lie past
/// `end`, so a delegate added during the pass is not called by it. Before each delegate it compares the
/// version with the one it noted (a plain load); once a removal has happened, it takes the lock for each
/// remaining delegate, to ask whether it is still registered. So a delegate removed before its turn is
/// skipped, and one that died before its turn fails its weak load. A pass ends with ``finish()``.
///
/// A pass does not retain the core: whoever runs it does (the multicast, or the iterator).
@usableFromInline
struct _Pass<Delegate> {
    @usableFromInline unowned(unsafe) let core: _Locked<_Registry<Delegate>>
    @usableFromInline let storage: _Storage<Delegate>
    @usableFromInline let slots: UnsafeMutablePointer<_Slot<Delegate>>
    @usableFromInline let end: UnsafeMutablePointer<_Slot<Delegate>>
    @usableFromInline let version: UnsafeMutablePointer<Int>
    @usableFromInline let versionAtStart: Int

    @inlinable
    @inline(__always)
    init(_ core: _Locked<_Registry<Delegate>>) {
        self.core = core
        let version = core.version
        let (storage, count, versionAtStart) = core.withLock {
            ($0.storage, $0.storage.head.pointee.count, _loadCounter(version))
        }
        self.version = version
        self.versionAtStart = versionAtStart
        self.storage = storage
        slots = storage.slots
        end = slots + count
    }

    /// Whether nothing was removed since the pass started, so that every delegate it holds may be called.
    @inlinable
    @inline(__always)
    var nothingRemoved: Bool {
        _loadCounter(version) == versionAtStart
    }

    /// Whether the delegate in `slot` is still registered, for the rest of a pass during which something was
    /// removed (``nothingRemoved`` is false): the storage the pass holds does not show removals made after it
    /// started, so it asks the registry. `object` is the delegate's object, if the caller has it at hand.
    @usableFromInline
    func stillRegistered(key: Int, object: AnyObject?, slot: UnsafeMutablePointer<_Slot<Delegate>>) -> Bool {
        let object = object ?? (slot.pointee.delegate as AnyObject)
        return core.withLock { $0.isRegistered(key: key, object: object) }
    }

    /// Finds the next delegate that may be called, from `cursor` on, and moves `cursor` past it.
    ///
    /// Returns its slot and the object that keeps it alive while it is used (nil for a strong delegate,
    /// which the storage keeps alive), or nil after the last one; counts the dead delegates it meets in
    /// `dead`. (`call` inlines its own copy of this loop, which lends each delegate without a retain.)
    @inlinable
    func next(
        _ cursor: inout UnsafeMutablePointer<_Slot<Delegate>>,
        dead: inout Int
    ) -> (slot: UnsafeMutablePointer<_Slot<Delegate>>, object: AnyObject?)? {
        while cursor < end {
            let slot = cursor
            cursor += 1
            let key = slot.pointee.key
            if _Slot<Delegate>.isStrong(key) {
                if nothingRemoved || stillRegistered(key: key, object: nil, slot: slot) { return (slot, nil) }
            } else if key != 0 {
                if let object = slot.pointee.reference.object {
                    if nothingRemoved || stillRegistered(key: key, object: object, slot: slot) { return (slot, object) }
                } else {
                    dead += 1
                }
            }
        }
        return nil
    }

    /// Ends the pass: records that it has finished reading its storage (see
    /// ``_Registry/storageIsUnique()``), which it still holds.
    @inlinable
    @inline(__always)
    func finish() {
        _depart(core.departures)
        extendLifetime(storage)
    }

    /// Whether meeting `dead` dead delegates makes reclaiming their slots pay for itself.
    @inlinable
    func shouldReclaim(dead: Int) -> Bool {
        dead > 0 && dead * 4 >= end - slots
    }
}

extension MulticastDelegate {
    /// Frees the slots of weak delegates that have died.
    ///
    /// Finding them takes a weak load of every delegate, which must happen outside the lock: the load retains
    /// the object, and if the last other reference goes meanwhile, releasing it runs the object's deinit,
    /// which may call back into this multicast.
    @usableFromInline
    func _reclaimDeadDelegates() {
        var positions: [Int] = []
        var keys: [Int] = []
        let (storage, end, generation) = _core.withLock {
            ($0.storage, $0.storage.head.pointee.count, $0.storage.head.pointee.generation)
        }
        withExtendedLifetime(storage) {  // so the registry copies it: it is read here without the lock
            for position in 0..<end {
                let slot = storage.slots + position
                let key = slot.pointee.key
                if key != 0 && !_Slot<Delegate>.isStrong(key) && slot.pointee.reference.object == nil {
                    positions.append(position)
                    keys.append(key)
                }
            }
            _depart(_core.departures)
            guard !positions.isEmpty else { return }
            let garbage = _core.withLock { $0.reclaim(positions, keys: keys, generation: generation) }
            extendLifetime(garbage)  // released here, outside the lock
        }
    }
}
