// The registry's changes, and the storage, slot and index functions they use, are `@inlinable`, so that an
// optimized client specializes them for its `Delegate`. Unspecialized, an add or a remove looks up generic
// metadata at nearly every step: with `add` and `remove` kept out of the client, an add and a remove took 1.76
// times the instructions (valgrind, `MulticastBenchmarks --add-remove "Multicast (weak)" 20000`: 4,445 against
// 2,522 per operation), and pairs under churn slowed with them. What a change rarely does (`removeAll`,
// reclaiming dead delegates, making a storage, the internal checks) is not inlinable.

/// A multicast's registry and the lock that guards it.
@usableFromInline
typealias _Core<Delegate> = _Locked<_Registry<Delegate>>

/// Everything a multicast knows, guarded by its lock: which storage holds the delegates, where each object's
/// slot is, and what waits for the passes under way. It decides; ``_Storage`` does the pointer work.
///
/// The words for what happens to a registration and its memory, each meaning one thing:
/// - *unregister*: a registration ends (`remove`, `removeAll`, or a dead delegate reclaimed); its slot is
///   marked removed in every storage that passes may read, so that no pass calls it any more;
/// - *release*: what a slot owns (its weak reference, a strong delegate) is destroyed;
/// - *free*: a storage is deallocated, after its slots are released;
/// - *compact*: the removed slots of the current storage are dropped, in place or by moving the others into a
///   new storage;
/// - *collect*: what waited for a storage's readers is done: removed slots released, older storages freed;
/// - *reclaim*: the weak delegates found dead are unregistered.
///
/// What a removed slot owns is released only once no pass reads its storage: at once if none does, else by
/// the next change that finds it unread, or, for a strong delegate or an older storage, by the last pass to
/// leave (see ``_Readers``). Every change leaves what it released to a ``_Garbage``, which
/// ``_Locked/change(_:)`` lets go of after unlocking.
///
/// Its invariant, which ``checkInvariants()`` checks after every change when the package is built with
/// `MULTICAST_INTERNAL_CHECKS`: the current storage's slots are in registration order; `vacancies` counts
/// its slots that hold no registration; `pending` lists, without repeats, exactly those of them that still
/// own references, and `pendingStrong` those that own a strong delegate; the index lists exactly the slots
/// that hold a registration.
@usableFromInline
struct _Registry<Delegate> {
    /// The delegates, in registration order: where passes start.
    @usableFromInline
    var storage: _Storage<Delegate>

    /// Storages that the current one replaced while passes were reading them; each is freed when its last
    /// reader leaves.
    @usableFromInline
    var retired: [_Storage<Delegate>] = []

    /// Where each registered object's slot is in the current storage.
    @usableFromInline
    var index = _SlotIndex(capacity: 0)

    /// Positions in the current storage of removed slots that still own references, because passes were
    /// reading the storage when they were removed.
    @usableFromInline
    var pending: [Int] = []

    /// How many of the `pending` slots hold a strong delegate.
    @usableFromInline
    var pendingStrong = 0

    /// Slots of the current storage that hold no registration.
    @usableFromInline
    var vacancies = 0

    @usableFromInline
    var lastRegistration: Int64 = 0

    @usableFromInline
    init() {
        storage = _Storage(capacity: 0)
    }

    /// Starts a pass over the current storage: counts it in as a reader. (Mutating, though the registry does
    /// not change, so that an unoptimized build does not copy the registry to call it.)
    @inlinable
    @inline(always)
    mutating func enterPass() -> (base: _Slot<Delegate>, count: Int, readers: UnsafeMutablePointer<Int>) {
        // Read together, before the atomic operation: one use of the storage, which an optimized build makes
        // without a retain, where a use that spans the operation would retain the storage around it.
        let pass = storage.passStart
        _Readers.enter(pass.readers)
        return pass
    }
}

/// What a registry change leaves to release once the lock is let go of: a delegate's deinit may call back into
/// the multicast, so no reference that may be an object's last is dropped under the lock.
@usableFromInline
struct _Garbage<Delegate> {
    /// Strong delegates that removed slots owned.
    @usableFromInline
    var delegates: [Delegate] = []

    /// Storages that no pass reads any more.
    @usableFromInline
    var storages: [_Storage<Delegate>] = []

    /// Objects of weak delegates, held while their weak references were copied or moved.
    @usableFromInline
    var keepers: [AnyObject] = []

    @inlinable
    init() {}

    /// Releases everything; call it after unlocking. Each storage's slots are released before the storage
    /// goes, so that a delegate's deinit that uses the multicast finds it consistent.
    @inlinable
    consuming func release() {
        for storage in storages {
            storage.releaseAll()
        }
    }
}

extension _Locked {
    /// Runs `change` on the registry with the lock held, then releases what it left to release, with the lock
    /// let go of: the one place that does.
    @inlinable
    func change<Delegate, Result>(
        _ change: (inout _Registry<Delegate>, inout _Garbage<Delegate>) -> Result
    ) -> Result where Value == _Registry<Delegate> {
        var garbage = _Garbage<Delegate>()
        let result = withLock { registry in
            let result = change(&registry, &garbage)
            #if MULTICAST_INTERNAL_CHECKS
            registry.checkInvariants()
            #endif
            return result
        }
        garbage.release()
        return result
    }

    /// Registers `object` (whose value is `delegate`) at the end, unless it is registered already; returns
    /// whether it was added, or nil if it is being deallocated.
    @inlinable
    func add<Delegate>(_ delegate: Delegate, object: AnyObject, strong: Bool) -> Bool?
    where Value == _Registry<Delegate> {
        var mayGrow = false
        while true {
            switch change({ $0.add(delegate, object: object, strong: strong, mayGrow: mayGrow, &$1) }) {
            case .added: return true
            case .alreadyRegistered: return false
            case .deallocating: return nil
            case .full:
                // Before growing, reclaim the slots of dead delegates: growth is by three quarters, so this
                // scan is amortized O(1) per add.
                reclaimDeadDelegates()
                mayGrow = true
            }
        }
    }

    /// Unregisters the weak delegates that have died.
    ///
    /// Finding them takes a weak load of every delegate, which must happen outside the lock: the load retains
    /// the object, and if the last other reference goes meanwhile, releasing it runs the object's deinit,
    /// which may call back into this multicast. So a pass finds them, and the registry checks each again.
    @usableFromInline
    func reclaimDeadDelegates<Delegate>() where Value == _Registry<Delegate> {
        var dead: [(position: Int, key: _SlotKey)] = []
        var pass = _Pass(self)
        while let found = pass.nextDead() {
            dead.append(found)
        }
        pass.finish()  // it counted no dead delegate, so it does not reclaim again
        if !dead.isEmpty {
            change { $0.reclaim(dead, &$1) }
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
    /// A slot found by address holds `object` if it may be called and, for a weak delegate, its weak load
    /// returns `object`. That weak load under the lock is safe: it can only load `object` itself, which the
    /// caller keeps alive, or nil (a delegate that died at what is now `object`'s address).
    @inlinable
    func find(_ object: AnyObject) -> (bucket: Int, position: Int)? {
        let address = Self.address(of: object)
        var found = -1
        let bucket = index.firstBucket(for: address) { position in
            guard storage.address(at: position) == address else { return false }
            switch storage.liveness(at: position) {
            case .strong: break
            case .weak(let keeper): guard keeper === object else { return false }
            case .unregistered, .dead: return false
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

    /// What ``add(_:object:strong:mayGrow:_:)`` did.
    @usableFromInline
    enum AddOutcome {
        case added
        case alreadyRegistered
        /// The storage is full, and would have to grow; reclaim dead delegates' slots, then add again with
        /// `mayGrow`.
        case full
        /// The object is being deallocated (the add was made from its deinit): it could never be called.
        case deallocating
    }

    /// Registers `object` (whose value is `delegate`) at the end, unless it is registered already.
    @inlinable
    mutating func add(
        _ delegate: Delegate, object: AnyObject, strong: Bool, mayGrow: Bool, _ garbage: inout _Garbage<Delegate>
    ) -> AddOutcome {
        if find(object) != nil {
            return .alreadyRegistered
        }
        if storage.count == storage.capacity {
            // Dropping the removed slots may be enough; if the storage would grow, first find the dead ones.
            let capacity = Self.roomyCapacity(live: storage.count - vacancies)
            guard mayGrow || capacity <= storage.capacity else { return .full }
            rebuild(capacity: capacity, &garbage)
        }
        if !index.hasRoom {
            reindex(capacity: index.count * 2)
        }
        // An object in its deinit could never be called: a weak reference to it is nil from the start, though
        // the caller holds it, and a strong delegate would be kept past its deinit. It is refused.
        if strong && _WeakReference(object).object == nil {
            return .deallocating
        }
        lastRegistration += 1
        let position = storage.count
        storage.append(delegate, object: object, key: _SlotKey(registration: lastRegistration, strong: strong))
        if !strong, case .dead = storage.liveness(at: position) {
            _ = storage.release(at: position)
            storage.count = position
            return .deallocating
        }
        index.insert(position, address: Self.address(of: object))
        collect(&garbage)
        return .added
    }

    /// Unregisters `object`; returns false if it was not registered.
    @inlinable
    mutating func remove(_ object: AnyObject, _ garbage: inout _Garbage<Delegate>) -> Bool {
        guard let (bucket, position) = find(object) else { return false }
        unregister(at: position, bucket: bucket)
        compactIfSparse(&garbage)
        collect(&garbage)
        return true
    }

    /// Unregisters everything.
    @usableFromInline
    mutating func removeAll(_ garbage: inout _Garbage<Delegate>) {
        for old in retired + [storage] {
            for position in 0..<old.count {
                old.markRemoved(at: position)
            }
        }
        let old = storage
        storage = _Storage(capacity: 0)
        index = _SlotIndex(capacity: 0)
        resetVacancies()
        free(old, &garbage)
        collect(&garbage)
    }

    /// Unregisters the weak delegates that a pass found dead at `positions` of the current storage, with the
    /// keys it saw. A slot whose key differs no longer holds that registration (the storage was rebuilt, or the
    /// delegate removed, since the pass); registrations are never reused, and a dead object stays dead, so a
    /// slot with the same key is the same dead delegate, whichever storage the pass read.
    @usableFromInline
    mutating func reclaim(_ dead: [(position: Int, key: _SlotKey)], _ garbage: inout _Garbage<Delegate>) {
        for (position, key) in dead {
            guard position < storage.count else { break }
            guard storage.key(at: position) == key else { continue }
            unregister(at: position, bucket: index.firstBucket(for: storage.address(at: position)) { $0 == position }!)
        }
        compactIfSparse(&garbage)
        collect(&garbage)
    }

    /// Unregisters the slot at `position` of the current storage, which the index lists at `bucket`: marks
    /// it removed wherever a pass may read it, and leaves what it owns to ``collect(_:)``.
    @inlinable
    mutating func unregister(at position: Int, bucket: Int) {
        index.remove(bucket: bucket) { storage.address(at: $0) }
        let key = storage.key(at: position)
        storage.markRemoved(at: position)
        for old in retired {
            old.markRemoved(registration: key.registration)
        }
        pending.append(position)
        if key.isStrong { pendingStrong += 1 }
        vacancies += 1
    }

    /// Frees the storages that no pass reads any more, and releases the references of removed slots once no
    /// pass reads the current storage.
    ///
    /// An older storage, or a removed strong delegate, that waits for readers is collected by the last of them
    /// to leave, so that a strong delegate is released as soon as the calls under way end. The weak
    /// references of removed slots wait for the next change that finds the storage unread, or for the storage
    /// to be compacted: that costs a calling thread no lock per pass under churn.
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
        let isUnread =
            pendingStrong > 0 ? _Readers.isUnreadElseCollectOnLeave(readers) : _Readers.isUnread(readers)
        guard isUnread else { return }
        for position in pending {
            if let delegate = storage.release(at: position) {
                garbage.delegates.append(delegate)
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingStrong = 0
    }

    /// Frees `old`, which is no longer current, if no pass reads it; else keeps it until its last reader leaves.
    @inlinable
    mutating func free(_ old: _Storage<Delegate>, _ garbage: inout _Garbage<Delegate>) {
        if _Readers.isUnreadElseCollectOnLeave(old.readers) {
            garbage.storages.append(old)
        } else {
            retired.append(old)
        }
    }

    /// Compacts the current storage once three eighths of its slots are vacant and no pass reads it, so that
    /// its slots move, or once half of them are, whatever passes do.
    ///
    /// A rebuild while passes read the storage must copy each weak reference, an atomic operation on the
    /// object's reference counts that slows a pass weak-loading the same objects on another thread; a calling
    /// thread leaves the storage unread often enough between its passes that most rebuilds avoid that.
    @inlinable
    mutating func compactIfSparse(_ garbage: inout _Garbage<Delegate>) {
        let count = storage.count
        guard vacancies >= 16 && vacancies * 8 >= count * 3 else { return }
        if vacancies * 2 >= count || _Readers.isUnread(storage.readers) {
            rebuild(capacity: Self.roomyCapacity(live: count - vacancies), &garbage)
        }
    }

    /// The capacity of a rebuilt storage that holds `live` registrations: three quarters more, so that the next
    /// rebuild comes after at least `live / 2` adds or removals (see ``compactIfSparse(_:)``) and costs O(1)
    /// per add or removal, amortized.
    @inlinable
    static func roomyCapacity(live: Int) -> Int {
        Swift.max(live + live * 3 / 4, 8)
    }

    /// Replaces the current storage by one of at least `capacity` slots that holds its registrations in order,
    /// less the removed ones, and indexes it anew; or, if no pass reads it and it is the right size, compacts
    /// it in place, which allocates nothing.
    @inlinable
    mutating func rebuild(capacity: Int, _ garbage: inout _Garbage<Delegate>) {
        let slotsMove = vacancies > 0
        let old = storage
        let isRead = !_Readers.isUnread(old.readers)
        if !isRead && capacity <= old.capacity && old.capacity <= capacity * 2 {
            old.compactInPlace(released: &garbage.delegates, keepers: &garbage.keepers)
            _Readers.forgetCollect(old.readers)  // what the last reader was to collect is done
        } else {
            storage = _Storage(capacity: capacity)
            old.transferRegistrations(to: storage, sourceIsRead: isRead, keepers: &garbage.keepers)
            free(old, &garbage)  // with the removed slots, which it releases when it is freed
        }
        resetVacancies()
        if slotsMove {
            reindex(capacity: storage.count)
        }
    }

    /// Records that the current storage holds no removed slot: it was replaced, or compacted.
    @inlinable
    mutating func resetVacancies() {
        pending.removeAll(keepingCapacity: true)
        pendingStrong = 0
        vacancies = 0
    }

    /// Files every registered slot of the current storage in a new index with room for `capacity` slots.
    @inlinable
    mutating func reindex(capacity: Int) {
        index.removeAll(keepingRoomFor: capacity)
        for position in 0..<storage.count where storage.key(at: position).isCallable {
            index.insert(position, address: storage.address(at: position))
        }
    }
}
