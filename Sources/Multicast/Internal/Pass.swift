/// One walk over a multicast's delegates: what `call`, iteration, `count` and `isEmpty` share.
///
/// A pass takes the lock once, to retain the current storage and note its slot count and the core's version
/// (which every removal advances). Then, without the lock, it reads slots in order: one weak load per weak
/// delegate, nothing for a strong one (the storage it holds keeps those alive). Slots added later lie past
/// `end`, so a delegate added during the pass is not called by it. Before each delegate it compares the
/// version with the one it noted (a plain load); once a removal has happened, it takes the lock for each
/// remaining delegate, to ask whether it is still registered. So a delegate removed before its turn is
/// skipped, and one that died before its turn fails its weak load.
@usableFromInline
struct _Pass<Delegate> {
    @usableFromInline let core: _Locked<_Registry<Delegate>>
    @usableFromInline let storage: _Storage<Delegate>
    @usableFromInline let slots: UnsafeMutablePointer<_Slot<Delegate>>
    @usableFromInline let version: UnsafeMutablePointer<Int>
    @usableFromInline let end: Int
    @usableFromInline var position = 0
    @usableFromInline let versionAtStart: Int
    @usableFromInline var dead = 0

    @inlinable
    init(_ core: _Locked<_Registry<Delegate>>) {
        self.core = core
        version = core.version
        (storage, end, versionAtStart) = core.withLock { [version] in
            ($0.storage, $0.storage.header.count, _loadVersion(version))
        }
        slots = storage.slots
    }

    /// The next delegate's slot, and the object that keeps it alive while it is used (nil for a strong one).
    @inlinable
    mutating func next() -> (slot: UnsafeMutablePointer<_Slot<Delegate>>, object: AnyObject?)? {
        while position < end {
            let slot = slots + position
            position += 1
            let key = slot.pointee.key
            if key == 0 { continue }
            if _Slot<Delegate>.isStrong(key) {
                if _loadVersion(version) == versionAtStart || stillRegistered(key: key, object: nil, slot: slot) {
                    return (slot, nil)
                }
            } else if let object = slot.pointee.reference.object {
                if _loadVersion(version) == versionAtStart || stillRegistered(key: key, object: object, slot: slot) {
                    return (slot, object)
                }
            } else {
                dead += 1
            }
        }
        return nil
    }

    /// The slow path of ``next()``, for the rest of a pass during which something was removed: the storage
    /// the pass holds does not show removals made after it started, so it asks the registry.
    @usableFromInline
    func stillRegistered(key: Int, object: AnyObject?, slot: UnsafeMutablePointer<_Slot<Delegate>>) -> Bool {
        let object = object ?? (slot.pointee.delegate as AnyObject)
        return core.withLock { $0.isRegistered(key: key, object: object) }
    }

    /// Ends the pass.
    ///
    /// Taking the lock once more, with the storage still held, orders this pass's reads of the storage before
    /// any write that the registry makes in place once it finds the storage no longer shared. (The release of
    /// the reference orders them too, but the thread sanitizer does not see reference counts.)
    @inlinable
    func finish() {
        withExtendedLifetime(storage) {
            core.withLock { _ in }
        }
    }

    /// Whether enough dead delegates were met that reclaiming their slots pays for itself.
    @inlinable
    var shouldReclaim: Bool {
        dead > 0 && dead * 4 >= end
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
            ($0.storage, $0.storage.header.count, $0.storage.header.generation)
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
            guard !positions.isEmpty else { return }
            let garbage = _core.withLock { $0.reclaim(positions, keys: keys, generation: generation) }
            withExtendedLifetime(garbage) {}
        }
    }
}
