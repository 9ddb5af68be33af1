/// Everything a multicast knows, guarded by its lock.
@usableFromInline
struct _Registry<Delegate> {
    /// The delegates, in registration order.
    @usableFromInline
    var storage: _Storage<Delegate>

    /// Where each registered object's slot is. Entries of objects that died may linger until the storage is
    /// rebuilt; a lookup always checks the slot it finds.
    @usableFromInline
    var index = _SlotIndex(capacity: 0)

    @usableFromInline
    var lastRegistration = 0

    @usableFromInline
    var lastGeneration = 0

    /// The core's count of passes that have finished reading a storage (see ``storageIsUnique()``).
    @usableFromInline
    let departures: UnsafeMutablePointer<Int>

    @inlinable
    init(departures: UnsafeMutablePointer<Int>) {
        self.departures = departures
        storage = _Storage.make(minimumCapacity: 0, generation: 0)
    }
}

/// What a registry change leaves to release once the lock is dropped: a delegate's deinit may call back into
/// the multicast, so no strong reference may die under the lock.
@usableFromInline
struct _Garbage<Delegate> {
    @usableFromInline var delegate: Delegate?
    @usableFromInline var storage: _Storage<Delegate>?

    @inlinable
    init(delegate: Delegate? = nil, storage: _Storage<Delegate>? = nil) {
        self.delegate = delegate
        self.storage = storage
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
            guard _Slot<Delegate>.isStrong(slot.pointee.key) || slot.pointee.reference.object === object else {
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

    /// Whether registration `key` of `object` is still in the registry.
    @inlinable
    func isRegistered(key: Int, object: AnyObject) -> Bool {
        guard let (_, position) = find(object) else { return false }
        return storage.slots[position].key == key
    }

    /// Files every occupied slot of the storage in a new index with room for `capacity` slots.
    @inlinable
    mutating func reindex(capacity: Int) {
        index = _SlotIndex(capacity: capacity)
        let slots = storage.slots
        for position in 0..<storage.head.pointee.count where slots[position].key != 0 {
            index.insert(position, address: _Slot.address(in: slots + position))
        }
    }

    /// Whether the registry alone references its storage, so that slots below its count may be written in
    /// place.
    ///
    /// Passes bump the departure count when they finish reading, before they let go of the storage; loading
    /// it once the storage is found unique orders their reads before the writes that follow. (The release of
    /// their references orders them too, but the thread sanitizer does not see reference counts.)
    @inlinable
    mutating func storageIsUnique() -> Bool {
        guard isKnownUniquelyReferenced(&storage) else { return false }
        _ = _loadCounter(departures)
        return true
    }

    @inlinable
    mutating func nextGeneration() -> Int {
        lastGeneration += 1
        return lastGeneration
    }

    /// What ``add(_:object:strong:mayGrow:)`` did.
    @usableFromInline
    enum AddOutcome {
        case added
        case alreadyRegistered
        /// The storage is full; reclaim dead delegates' slots, then add again with `mayGrow`.
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
        if find(object) != nil {
            return (.alreadyRegistered, _Garbage())
        }
        var garbage = _Garbage<Delegate>()
        let header = storage.head.pointee
        if header.count == storage.capacity {
            guard mayGrow else { return (.full, garbage) }
            // Drop vacant slots if that frees at least half, else double.
            let live = header.count - header.vacancies
            garbage.storage = rebuild(capacity: live * 2 <= header.count ? header.count : header.count * 2)
        }
        lastRegistration += 1
        let key = lastRegistration << 1 | (strong ? 1 : 0)
        let position = storage.head.pointee.count
        _Storage.occupy(storage.slots + position, with: delegate, object: object, key: key)
        storage.head.pointee.count = position + 1
        if !index.hasRoom {
            reindex(capacity: index.count * 2)
        }
        index.insert(position, address: Self.address(of: object))
        return (.added, garbage)
    }

    /// Unregisters `object`; returns false if it was not registered.
    @inlinable
    mutating func remove(_ object: AnyObject) -> (removed: Bool, garbage: _Garbage<Delegate>) {
        guard let (bucket, position) = find(object) else { return (false, _Garbage()) }
        index.remove(bucket: bucket) { _Slot.address(in: storage.slots + $0) }
        var garbage = _Garbage<Delegate>()
        if !storageIsUnique() {
            // A pass is reading this storage: leave it as it is and go on with a copy.
            garbage.storage = rebuild(capacity: storage.capacity, dropping: [position])
            return (true, garbage)
        }
        garbage.delegate = _Storage.vacate(storage.slots + position)
        storage.head.pointee.vacancies += 1
        let header = storage.head.pointee
        if header.vacancies >= 16 && header.vacancies * 2 >= header.count {
            garbage.storage = rebuild(capacity: storage.capacity)
        }
        return (true, garbage)
    }

    /// Unregisters everything; what is returned is released by the caller, outside the lock.
    @inlinable
    mutating func removeAll() -> _Garbage<Delegate> {
        let old = storage
        storage = _Storage.make(minimumCapacity: 0, generation: nextGeneration())
        index = _SlotIndex(capacity: 0)
        return _Garbage(storage: old)
    }

    /// Drops the slots at `positions` of the storage of `generation`, which a scan found dead (weak slots
    /// whose object is gone), unless the slots have moved since. Returns the old storage, for release outside
    /// the lock.
    @inlinable
    mutating func reclaim(_ positions: [Int], keys: [Int], generation: Int) -> _Garbage<Delegate> {
        guard storage.head.pointee.generation == generation else { return _Garbage() }
        let dead = zip(positions, keys).filter { storage.slots[$0.0].key == $0.1 }.map(\.0)
        guard !dead.isEmpty else { return _Garbage() }
        return _Garbage(storage: rebuild(capacity: storage.capacity, dropping: dead))
    }

    /// Replaces the storage by one of at least `capacity` slots that holds its occupied slots in order, less
    /// those at `dropping` (ascending), and indexes it anew. Returns the old storage, for release outside the
    /// lock.
    @inlinable
    mutating func rebuild(capacity: Int, dropping: [Int] = []) -> _Storage<Delegate> {
        // A storage that is dropping slots is copied even if it became unique (a pass may drop its reference
        // at any time): its deinit, outside the lock, then releases what the dropped slots own.
        let unique = dropping.isEmpty && storageIsUnique()
        let old = storage
        let new = _Storage<Delegate>.make(minimumCapacity: capacity, generation: nextGeneration())
        let count = old.head.pointee.count
        var dropped = dropping.makeIterator()
        var nextDropped = dropped.next()
        var target = 0
        for position in 0..<count {
            let source = old.slots + position
            if position == nextDropped {
                nextDropped = dropped.next()
                continue
            }
            guard source.pointee.key != 0 else { continue }
            if unique {
                (new.slots + target).moveInitialize(from: source, count: 1)
                source.pointee.key = 0  // moved out: the old storage's deinit must not destroy it again
            } else {
                _Storage.copy(source, to: new.slots + target)
            }
            target += 1
        }
        new.head.pointee.count = target
        if unique {
            old.head.pointee.count = 0  // every slot moved out: nothing left for its deinit to visit
        }
        storage = new
        reindex(capacity: target)
        return old
    }
}
