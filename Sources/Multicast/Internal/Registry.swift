/// Everything a multicast knows, guarded by its lock.
///
/// A removal reaches the passes under way by its slot's key: it marks the slot removed, in place, in the
/// current storage and in every older storage that passes still read. Each storage owns what its slots hold,
/// and what a removed slot owns is released only once no pass reads its storage: at once if none does, else
/// by the last pass to leave (see ``_Readers``). An older storage is freed the same way.
@usableFromInline
struct _Registry<Delegate> {
    /// The delegates, in registration order: where passes start.
    @usableFromInline
    var storage: _Storage<Delegate>

    /// Storages that the current one replaced while passes were reading them; each is freed when its last
    /// reader leaves.
    @usableFromInline
    var retired: [_Storage<Delegate>] = []

    /// Where each registered object's slot is in the current storage. Entries of objects that died may
    /// linger until the storage is rebuilt; a lookup always checks the slot it finds.
    @usableFromInline
    var index = _SlotIndex(capacity: 0)

    /// Positions in the current storage of removed slots that still own references, because passes were
    /// reading the storage when they were removed.
    @usableFromInline
    var pending: [Int] = []

    /// How many of the `pending` slots hold a strong delegate.
    @usableFromInline
    var pendingStrong = 0

    /// Slots of the current storage that no longer hold a registration (removed, or found dead).
    @usableFromInline
    var vacancies = 0

    @usableFromInline
    var lastRegistration = 0

    @inlinable
    init() {
        storage = _Storage.make(minimumCapacity: 0)
    }
}

/// What a registry change leaves to release once the lock is dropped: a delegate's deinit may call back into
/// the multicast, so no strong reference may die under the lock.
@usableFromInline
struct _Garbage<Delegate> {
    @usableFromInline var delegates: [Delegate] = []
    @usableFromInline var storages: [_Storage<Delegate>] = []

    @inlinable
    init() {}

    /// Releases everything, outside the lock: the slots of the storages (through this specialized code, which
    /// is much faster per slot than the storage's generic deinit), then the storages and delegates.
    @inlinable
    consuming func dispose() {
        for storage in storages {
            storage.releaseSlots()
        }
    }
}

extension _Registry {
    /// The address that the index files `object` under.
    @inlinable
    static func address(of object: AnyObject) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }

    /// Where `object` is registered, if it is: its bucket in the index and its slot.
    ///
    /// A weak load under the lock is safe here: it can only load `object` itself, which the caller keeps
    /// alive, or nil (a delegate that died at what is now `object`'s address).
    @inlinable
    func find(_ object: AnyObject) -> (bucket: Int, position: Int)? {
        let address = Self.address(of: object)
        var found = -1
        let bucket = index.firstBucket(for: address) { position in
            let slot = storage.slots + position
            guard _Slot.address(in: slot) == address else { return false }
            let key = _Slot.loadKey(slot)
            guard key.isCallable, key.isStrong || slot.pointee.reference.object === object else {
                return false  // dead
            }
            found = position
            return true
        }
        return bucket.map { ($0, found) }
    }

    /// Whether `object` is registered.
    @inlinable
    func contains(_ object: AnyObject) -> Bool {
        find(object) != nil
    }

    /// Starts a pass over the current storage: counts it in as a reader.
    @inlinable
    @inline(__always)
    func enterPass() -> (
        slots: UnsafeMutablePointer<_Slot<Delegate>>, end: UnsafeMutablePointer<_Slot<Delegate>>,
        readers: UnsafeMutablePointer<Int>
    ) {
        let readers = storage.readers
        _Readers.enter(readers)
        let slots = storage.slots
        return (slots, slots + storage.head.pointee.count, readers)
    }

    /// What ``add(_:object:strong:mayGrow:)`` did.
    @usableFromInline
    enum AddOutcome {
        case added
        case alreadyRegistered
        /// The storage is full, and would have to grow; reclaim dead delegates' slots, then add again with
        /// `mayGrow`.
        case full
    }

    /// Registers `object` (whose value is `delegate`) at the end, unless it is registered already.
    @inlinable
    mutating func add(
        _ delegate: Delegate,
        object: AnyObject,
        strong: Bool,
        mayGrow: Bool
    ) -> (outcome: AddOutcome, garbage: _Garbage<Delegate>) {
        var garbage = _Garbage<Delegate>()
        if find(object) != nil {
            return (.alreadyRegistered, garbage)
        }
        let count = storage.head.pointee.count
        if count == storage.capacity {
            // Dropping the removed slots may be enough; if the storage would grow, first find the dead ones.
            guard mayGrow || Self.roomyCapacity(live: count - vacancies) <= storage.capacity else {
                return (.full, garbage)
            }
            makeRoom(&garbage)
        }
        if !index.hasRoom {
            reindex(capacity: index.count * 2)
        }
        lastRegistration += 1
        let position = storage.head.pointee.count
        let slot = storage.slots + position
        _Slot.occupy(
            slot, with: delegate, object: object, key: _SlotKey(registration: lastRegistration, strong: strong))
        storage.head.pointee.count = position + 1
        index.insert(position, address: Self.address(of: object))
        collect(&garbage)
        return (.added, garbage)
    }

    /// Unregisters `object`; returns false if it was not registered.
    @inlinable
    mutating func remove(_ object: AnyObject) -> (removed: Bool, garbage: _Garbage<Delegate>) {
        var garbage = _Garbage<Delegate>()
        guard let (bucket, position) = find(object) else { return (false, garbage) }
        index.remove(bucket: bucket) { _Slot.address(in: storage.slots + $0) }
        unregister(at: position)
        compactIfSparse(&garbage)
        collect(&garbage)
        return (true, garbage)
    }

    /// Unregisters everything; what is returned is released by the caller, outside the lock.
    @usableFromInline
    mutating func removeAll() -> _Garbage<Delegate> {
        var garbage = _Garbage<Delegate>()
        for old in retired + [storage] {
            for position in 0..<old.head.pointee.count {
                markRemoved(old.slots + position)
            }
        }
        retire(storage, &garbage)
        storage = _Storage.make(minimumCapacity: 0)
        index = _SlotIndex(capacity: 0)
        forgetRemovedSlots()
        collect(&garbage)
        return garbage
    }

    /// Unregisters the slot at `position` of the current storage, which the index no longer lists: marks it
    /// removed wherever a pass may read it, and leaves what it owns to ``collect(_:)``.
    @inlinable
    mutating func unregister(at position: Int) {
        let slot = storage.slots + position
        let key = _Slot.loadKey(slot)
        let registration = key.registration
        markRemoved(slot)
        for old in retired {
            if let oldPosition = old.position(ofRegistration: registration) {
                markRemoved(old.slots + oldPosition)
            }
        }
        pending.append(position)
        if key.isStrong { pendingStrong += 1 }
        vacancies += 1
    }

    /// Records that the current storage holds no removed slot: it was replaced, or compacted.
    @inlinable
    mutating func forgetRemovedSlots() {
        pending.removeAll(keepingCapacity: true)
        pendingStrong = 0
        vacancies = 0
    }

    /// Drops the removed slots of the current storage once they are three eighths of it and no pass reads it,
    /// so that its slots move, or once they are half of it whatever passes do.
    ///
    /// A rebuild while passes read the storage must copy each weak reference, an atomic operation on the
    /// object's reference counts that slows a pass weak-loading the same objects on another thread; a calling
    /// thread leaves the storage unread often enough between its passes that most rebuilds avoid that.
    @inlinable
    mutating func compactIfSparse(_ garbage: inout _Garbage<Delegate>) {
        let count = storage.head.pointee.count
        guard vacancies >= 16 && vacancies * 8 >= count * 3 else { return }
        if vacancies * 2 >= count || _Readers.isUnread(storage.readers) {
            rebuild(capacity: Self.roomyCapacity(live: count - vacancies), &garbage)
        }
    }

    @inlinable
    func markRemoved(_ slot: UnsafeMutablePointer<_Slot<Delegate>>) {
        let key = _Slot.loadKey(slot)
        if key.isCallable { _Slot.storeKey(slot, key.removed) }
    }

    /// Frees the storages that no pass reads any more, and releases the references of removed slots once no
    /// pass reads the current storage.
    ///
    /// An older storage, or a removed strong delegate, that waits for readers is collected by the last of them
    /// to leave, so that a strong delegate is released as soon as the calls under way end. The weak
    /// references of removed slots wait for the next change that finds the storage unread, or for the storage
    /// to be rebuilt, which frees them with it: that costs a calling thread no lock per pass under churn.
    @inlinable
    mutating func collect(_ garbage: inout _Garbage<Delegate>) {
        if !retired.isEmpty {
            retired.removeAll { old in
                guard _Readers.isUnreadElseCollectOnLeave(old.readers) else { return false }
                garbage.storages.append(old)
                return true
            }
        }
        guard !pending.isEmpty else { return }
        let readers = storage.readers
        let unread =
            pendingStrong > 0 ? _Readers.isUnreadElseCollectOnLeave(readers) : _Readers.isUnread(readers)
        guard unread else { return }
        for position in pending {
            if let delegate = _Slot.release(storage.slots + position) {
                garbage.delegates.append(delegate)
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingStrong = 0
    }

    /// Replaces the current storage by `old`'s successor: frees `old` if no pass reads it, else keeps it until
    /// its last reader leaves.
    @inlinable
    mutating func retire(_ old: _Storage<Delegate>, _ garbage: inout _Garbage<Delegate>) {
        if _Readers.isUnreadElseCollectOnLeave(old.readers) {
            garbage.storages.append(old)
        } else {
            retired.append(old)
        }
    }

    /// Makes room for one more slot in the full current storage, dropping the removed slots.
    @inlinable
    mutating func makeRoom(_ garbage: inout _Garbage<Delegate>) {
        rebuild(capacity: Self.roomyCapacity(live: storage.head.pointee.count - vacancies), &garbage)
    }

    /// The capacity of a rebuilt storage that holds `live` registrations: three quarters more, so that the next
    /// rebuild comes after at least `live / 2` adds or removals (see ``compactIfSparse(_:)``) and costs O(1)
    /// per add or removal, amortized.
    @inlinable
    static func roomyCapacity(live: Int) -> Int {
        Swift.max(live + live * 3 / 4, 8)
    }

    /// Replaces the current storage by one of at least `capacity` slots that holds its registrations in order,
    /// less the removed ones, and indexes it anew; or, if no pass reads it and it is the right size, drops its
    /// removed slots in place, which allocates nothing.
    @inlinable
    mutating func rebuild(capacity: Int, _ garbage: inout _Garbage<Delegate>) {
        let old = storage
        let isRead = !_Readers.isUnread(old.readers)
        if !isRead && capacity <= old.capacity && old.capacity <= capacity * 2 {
            return compactInPlace(&garbage)
        }
        let new = _Storage<Delegate>.make(minimumCapacity: capacity)
        let count = old.head.pointee.count
        let (sources, targets) = (old.slots, new.slots)
        var target = 0
        for position in 0..<count where _Slot.loadKey(sources + position).isCallable {
            _Slot.transfer(from: sources + position, to: targets + target, sourceIsRead: isRead)
            target += 1
        }
        new.head.pointee.count = target
        storage = new
        if target != count {
            reindex(capacity: target)
        }
        // The removed slots stay in `old`, which releases what they own when it is freed.
        forgetRemovedSlots()
        retire(old, &garbage)
    }

    /// Drops the removed slots of the current storage, which no pass reads, moving the others down in order.
    @inlinable
    mutating func compactInPlace(_ garbage: inout _Garbage<Delegate>) {
        let slots = storage.slots
        let count = storage.head.pointee.count
        var target = 0
        for position in 0..<count {
            let slot = slots + position
            if _Slot.loadKey(slot).isCallable {
                if target != position { (slots + target).moveInitialize(from: slot, count: 1) }
                target += 1
            } else if let delegate = _Slot.release(slot) {
                garbage.delegates.append(delegate)
            }
        }
        storage.head.pointee.count = target
        forgetRemovedSlots()
        reindex(capacity: target)
    }

    /// Files every registered slot of the current storage in a new index with room for `capacity` slots.
    @inlinable
    mutating func reindex(capacity: Int) {
        index.removeAll(keepingRoomFor: capacity)
        let slots = storage.slots
        for position in 0..<storage.head.pointee.count where _Slot.loadKey(slots + position).isCallable {
            index.insert(position, address: _Slot.address(in: slots + position))
        }
    }

    /// Unregisters the weak delegates that a scan found dead at `positions` of the current storage, with the
    /// keys it saw. A slot whose key differs no longer holds that registration (the storage was rebuilt, or the
    /// delegate removed, since the scan); registrations are never reused, and a dead object stays dead, so a
    /// slot with the same key is the same dead delegate, whichever storage the scan read.
    @usableFromInline
    mutating func reclaim(_ positions: [Int], keys: [_SlotKey]) -> _Garbage<Delegate> {
        var garbage = _Garbage<Delegate>()
        for (position, key) in zip(positions, keys) {
            guard position < storage.head.pointee.count else { break }
            let slot = storage.slots + position
            guard _Slot.loadKey(slot) == key else { continue }
            let bucket = index.firstBucket(for: _Slot.address(in: slot)) { $0 == position }!
            index.remove(bucket: bucket) { _Slot.address(in: storage.slots + $0) }
            unregister(at: position)
        }
        compactIfSparse(&garbage)
        collect(&garbage)
        return garbage
    }
}

extension MulticastDelegate {
    /// Unregisters the weak delegates that have died.
    ///
    /// Finding them takes a weak load of every delegate, which must happen outside the lock: the load retains
    /// the object, and if the last other reference goes meanwhile, releasing it runs the object's deinit,
    /// which may call back into this multicast.
    @inlinable
    @inline(never)
    func _reclaimDeadDelegates() {
        var positions: [Int] = []
        var keys: [_SlotKey] = []
        let pass = _Pass(_core)
        var slot = pass.slots
        while slot < pass.end {
            let key = _Slot.loadKey(slot)
            if key.isCallable && !key.isStrong && slot.pointee.reference.object == nil {
                positions.append(slot - pass.slots)
                keys.append(key)
            }
            slot += 1
        }
        pass.finish()
        guard !positions.isEmpty else { return }
        let garbage = _core.withLock { $0.reclaim(positions, keys: keys) }
        garbage.dispose()  // outside the lock
    }
}
