import _MulticastShims

/// Everything a multicast knows, guarded by its lock: which storage holds the delegates, where each object's
/// slot is, and what waits for the passes under way. It decides; ``_Storage`` does the pointer work.
///
/// The words for what happens to a registration and its memory, each meaning one thing:
/// - *unregister*: a registration ends (`remove`, `removeAll`, or a dead delegate reclaimed); its slot is
///   marked removed in every storage that passes may read, so that no pass calls it any more;
/// - *release*: what a slot owns (its weak reference or pin, a count on a strong delegate) is destroyed;
/// - *free*: a storage is deallocated, after its slots are released;
/// - *compact*: the removed slots of the current storage are dropped, in place or by moving the others into a
///   new storage;
/// - *collect*: what waited for a storage's readers is done: removed slots released, older storages freed;
/// - *reclaim*: the registrations found ended with their owners are unregistered;
/// - *tidy*: collect, then compact: what every change that unregisters does last.
///
/// What passes may read is released only once they have left (``_DeferredRelease``), into a ``_Garbage`` that
/// ``_Core/change(_:)`` lets go of after unlocking.
///
/// Its invariant (``checkInvariants()``): the current storage's slots are in registration order; `vacancies`
/// counts its slots that hold no registration; the index lists exactly the slots that hold a registration; and
/// `deferred` keeps its own.
@safe  // what it points to is its own, reached only under the multicast's lock
@usableFromInline
struct _Registry {
    /// The delegates, in registration order: where passes start.
    @usableFromInline
    private(set) var storage: _Storage

    /// `storage.slots`, kept beside it: the registry's changes and passes read it with no reference count.
    @usableFromInline
    private(set) var slots: _StorageHandle

    /// Where each registered object's slot is in the current storage; its buckets are freed in ``deallocate()``.
    @usableFromInline
    var index = _SlotIndex(capacity: 0)

    /// What waits for the passes that read the current storage, or older ones, to end.
    @usableFromInline
    var deferred = _DeferredRelease()

    /// Slots of the current storage that hold no registration.
    @usableFromInline
    var vacancies = 0

    /// The number of the newest registration; the next one gets the number after it.
    @usableFromInline
    var newestRegistration: Int64 = 0

    /// The registrations that the last search for dead delegates left (see ``makeRoom(searched:_:)``).
    var registeredAtLastSearch = 0

    /// Whether owned registrations pin their owners: ``_OwnerPin/isAvailable`` (one load here, where that is a
    /// call), or false from a test, to run the Objective-C runtime's path (owners held weakly) on any platform.
    @usableFromInline
    let ownersArePinned: Bool

    /// The core's gate (see ``_Gate``), which shows the current storage's ticket, closed while ``gateIsClosed``.
    @usableFromInline
    let gate: _Gate

    /// Whether this change closed the gate; ``_Core/change(_:)`` opens it again before it lets go of the lock.
    @usableFromInline
    var gateIsClosed = false

    /// The tickets of the storages (see ``_Tickets``), which the registry frees in ``deallocate()``.
    var tickets = _Tickets()

    init(layout: _DelegateLayout, gate: _Gate, ownersArePinned: Bool) {
        storage = _Storage(capacity: 0, layout: layout, tickets: &tickets)
        slots = storage.slots
        self.gate = gate
        self.ownersArePinned = ownersArePinned
        gate.open(showing: slots)
    }

    /// Counts a pass in as a reader of the current storage, under the lock, where the gate is open. (Mutating,
    /// though nothing changes, so that calling it copies no registry; so are the lookups.)
    mutating func enterPass() -> (base: _Slot, stride: Int, count: Int, readers: UnsafeMutablePointer<Int>) {
        let slots = slots
        unsafe _Readers.enter(slots.readers)
        return unsafe (slots.base, slots.layout.stride, slots.count, slots.readers)
    }
}

extension _Registry {
    /// Where a registered object is: its bucket in the index, and its slot's position in the current storage.
    @frozen
    @usableFromInline
    struct Found {
        @usableFromInline
        var bucket: Int
        @usableFromInline
        var position: Int

        @inlinable
        @inline(always)
        init(bucket: Int, position: Int) {
            self.bucket = bucket
            self.position = position
        }
    }

    /// Where `owner`'s registration is, if it has one: an owned registration if `owned`, else `owner`'s as a delegate
    /// of its own (see ``_Slot/holdsRegistration(ofOwnerAt:)``: a pinned owner's is found from its deinit too).
    @inlinable
    @inline(always)
    mutating func find(_ owner: _Object, owned: Bool) -> Found? {
        let address = owner.address
        var bucket = index.home(of: address)
        while let position = index.position(inBucket: bucket) {
            if slots.key(at: position).isOwned == owned, slots.holdsRegistration(at: position, ofOwnerAt: address) {
                return Found(bucket: bucket, position: position)
            }
            bucket = index.bucket(after: bucket)
        }
        return nil
    }

    /// Where an owned registration is whose owner, now dead, had `address`; nil if there is none.
    @usableFromInline
    mutating func findEndedOwnedRegistration(address: UInt) -> Found? {
        var bucket = index.home(of: address)
        while let position = index.position(inBucket: bucket) {
            if slots.address(at: position) == address && slots.key(at: position).isOwned,
                case .dead = slots.liveness(at: position)
            {
                return Found(bucket: bucket, position: position)
            }
            bucket = index.bucket(after: bucket)
        }
        return nil
    }

    /// What ``add(bitsOf:object:owner:holding:searched:recording:_:)`` did: an ``_Addition``'s cases, or `full`.
    @usableFromInline
    enum AddOutcome {
        case added
        case replaced
        case alreadyRegistered
        case registeredWithOtherRetention
        /// The storage is full, and would have to grow; reclaim dead registrations' slots, then add again with
        /// `searched` (see ``_Registry/makeRoom(searched:_:)``).
        case full
        case deallocating
        case ownerDeallocating
    }

    /// The registry's part of ``_Core/add(bitsOf:object:owner:holding:recording:)``, under the lock; `searched`
    /// says whether the add has searched for ended registrations (see ``makeRoom(searched:_:)``).
    @inlinable
    @inline(always)
    mutating func add<Recorder: _RegistrationRecorder & ~Copyable>(
        bitsOf value: UnsafeRawPointer, object: _Object, owner: _Object, holding: _Holding,
        searched: Bool, recording recorder: inout Recorder, _ garbage: inout _Garbage
    ) -> AddOutcome {
        // The owner, which the caller holds, is in its deinit (a weak delegate added from its own deinit, or an
        // owner's): where owners are pinned, one load of its counts says so, before anything changes (and before
        // `find` meets the registration that has ended with it); elsewhere, the slot's new weak reference, below.
        if ownersArePinned, holding.endsWithOwner, unsafe _OwnerPin.isDead(owner.address) {
            switch holding {
            case .owned: return .ownerDeallocating
            case .weak, .strong: return .deallocating
            }
        }
        var replaced = false
        switch holding {
        case .owned:
            // Room first: the replaced registration is unregistered only by the add that makes the new one.
            if slots.count == slots.capacity {
                guard makeRoom(searched: searched, &garbage) else { return .full }
            }
            if let found = find(owner, owned: true) {
                unregister(at: found.position, bucket: found.bucket)
                replaced = true
            }
        case .weak, .strong:
            if let found = find(object, owned: false) {
                return slots.key(at: found.position).isStrong == holding.isStrong
                    ? .alreadyRegistered : .registeredWithOtherRetention
            }
            if slots.count == slots.capacity {
                guard makeRoom(searched: searched, &garbage) else { return .full }
            }
        }
        if !index.hasRoom {
            reindex(capacity: index.count * 2)
        }
        let key = _SlotKey(registration: newestRegistration + 1, holding: holding, pinsOwner: ownersArePinned)
        // A delegate in its deinit could never be called. A strong or owned one would keep a count past its deinit,
        // into freed memory (see `probesStrongDelegates`); a weak one is refused below, its weak reference nil.
        if key.isStrong, Self.probesStrongDelegates,
            unsafe _Slot.isDeallocating(object, ownersArePinned: ownersArePinned)
        {
            return .deallocating
        }
        newestRegistration += 1
        recorder.registering(newestRegistration)
        let position = slots.count
        unsafe slots.append(bitsOf: value, object: object, owner: owner, key: key)
        // The owner is in its deinit, where owners are not pinned (see above).
        if !ownersArePinned, key.endsWithOwner, slots.ownerIsDead(at: position) {
            if let object = slots.release(at: position) { garbage.append(object) }
            slots.dropLast()
            return key.isOwned ? .ownerDeallocating : .deallocating
        }
        index.insert(position, address: owner.address)
        collect(&garbage)
        return replaced ? .replaced : .added
    }

    /// Whether an add checks that a strong or owned delegate is not in its deinit: not in an unoptimized build
    /// without the Objective-C runtime, where the Swift runtime stops the program when a native object on the heap
    /// keeps a count past its deinit ("deallocated with non-zero retain count"), and where owners are not pinned the
    /// probe's weak reference would make each object's retains and releases the slow path, for life. An optimized
    /// build may put an object on the stack, which the runtime frees unchecked, and an Objective-C object's
    /// deallocation checks no count. (A package builds in its app's configuration, so the code that makes the object
    /// is unoptimized too.)
    @inlinable
    @inline(always)
    package static var probesStrongDelegates: Bool {
        #if _runtime(_ObjC) || !DEBUG
        true
        #else
        false
        #endif
    }

    /// Makes room for one more slot in a full storage by dropping its removed slots, or by growing it; returns
    /// false, without a change, when it must grow and the add is to search for dead delegates first: unless
    /// `searched` says it did, and unless the registrations are fewer than twice those of the last search.
    ///
    /// The search bounds the slots of dead delegates in a multicast that is never called (a call's pass finds
    /// them too) to about three and a half times the registrations the last search left, for about one and a half
    /// weak loads per add, amortized; searching at every growth would halve the slots, at 2.3 loads per add.
    @usableFromInline
    mutating func makeRoom(searched: Bool, _ garbage: inout _Garbage) -> Bool {
        let registered = slots.count - vacancies
        let capacity = Self.capacityOfRebuilt(holding: registered)
        if capacity > slots.capacity {
            if searched {
                registeredAtLastSearch = registered
            } else if registered >= 2 * registeredAtLastSearch {
                return false
            }
        }
        rebuild(capacity: capacity, &garbage)
        return true
    }

    /// Unregisters `object`, registered as a delegate of its own; returns false if it is not.
    @inlinable
    @inline(always)
    mutating func remove(_ object: _Object, _ garbage: inout _Garbage) -> Bool {
        guard let found = find(object, owned: false) else { return false }
        unregister(at: found.position, bucket: found.bucket)
        tidy(&garbage)
        return true
    }

    /// Unregisters `owner`'s owned registration; returns false if it has none. From the owner's deinit, where the
    /// registration has ended, a pinned owner's is found by its address all the same; an owner held weakly, dead to
    /// weak references, cannot be told apart from an earlier owner at its address, so the removal unregisters every
    /// ended owned registration filed under that address. Either way the delegate is released at once, as a removal
    /// promises. Where owners are not pinned, it may read `owner`, which the caller keeps alive.
    @unsafe
    @inlinable
    @inline(always)
    mutating func remove(ownedBy owner: _Object, _ garbage: inout _Garbage) -> Bool {
        if let found = find(owner, owned: true) {
            unregister(at: found.position, bucket: found.bucket)
        } else if !ownersArePinned, unsafe _Slot.isDeallocating(owner, ownersArePinned: false) {
            guard unregisterEndedOwnedRegistrations(address: owner.address) else { return false }
        } else {
            return false
        }
        tidy(&garbage)
        return true
    }

    /// Unregisters the owned registrations whose owner, now dead, had `address`; returns whether there were any.
    @usableFromInline
    mutating func unregisterEndedOwnedRegistrations(address: UInt) -> Bool {
        var any = false
        while let found = findEndedOwnedRegistration(address: address) {
            unregister(at: found.position, bucket: found.bucket)
            any = true
        }
        return any
    }

    /// A copy of the delegate of `owner`'s owned registration, if it has one and `owner` is not in its deinit,
    /// for `body`; the storage keeps it alive while the lock is held.
    @inlinable
    @inline(always)
    mutating func withDelegate<Result>(ownedBy owner: _Object, _ body: (_Slot?) -> Result) -> Result {
        guard let found = find(owner, owned: true), !slots.ownerIsDead(at: found.position) else {
            return body(nil)
        }
        return unsafe body(slots.slot(at: found.position))
    }

    /// Unregisters everything.
    mutating func removeAll(_ garbage: inout _Garbage) {
        for old in (deferred.retired ?? []) + [storage] {
            for position in 0..<old.slots.count {
                old.slots.markRemoved(at: position)
            }
        }
        let old = storage
        replaceStorage(with: _Storage(capacity: 0, layout: slots.layout, tickets: &tickets))
        index.removeAll(keepingRoomFor: 0)
        resetVacancies()
        deferred.retire(old, &garbage)
        collect(&garbage)
    }

    /// Unregisters the registrations that a pass marked ended (``_Slot/markEnded()``) among the slots from `first`
    /// up to `end` of the storage it read, whose slots begin at `base`, `stride` bytes apart, appending their numbers
    /// to `ended` if `reporting`; then counts the pass out through `readers` (until then, the storage is still
    /// there), and tidies.
    ///
    /// A marked registration still callable where the pass read it is registered, and unregistered where it is now:
    /// at the same position in the current storage, else found by its number (slots are in registration order, and
    /// numbers are never reused). A removal meanwhile marked it removed in every storage that passes read, under the
    /// lock, so it is not callable there; the model checks it.
    mutating func reclaimEnded(
        in base: _Slot, stride: Int, from first: Int, to end: Int, readers: UnsafeMutablePointer<Int>,
        reporting: Bool, _ ended: inout [Int64], _ garbage: inout _Garbage
    ) {
        let readsCurrent = unsafe base.state == slots.base.state
        var position = first
        while position < end {
            let key = unsafe base.advanced(by: position, stride: stride).key
            if key.isCallable, key.isEnded {
                let current = readsCurrent ? position : slots.position(ofRegistration: key.registration)
                precondition(
                    current.map { slots.key(at: $0).isCallable } == true,
                    "Multicast: a registration that a pass found ended is not registered: please report this bug")
                unregister(at: current!, bucket: index.bucket(holding: current!, address: slots.address(at: current!)))
                if reporting { ended.append(key.registration) }
            }
            position += 1
        }
        _ = unsafe _Readers.leave(readers)  // whether the pass was the last reader: collect looks for itself
        tidy(&garbage)
    }

    /// Unregisters the slot at `position` of the current storage, which the index lists at `bucket`: marks
    /// it removed wherever a pass may read it, and leaves what it owns to ``collect(_:)``.
    @inlinable
    @inline(always)
    mutating func unregister(at position: Int, bucket: Int) {
        let slots = slots
        index.remove(bucket: bucket) { slots.address(at: $0) }
        let key = slots.key(at: position)
        slots.markRemoved(at: position)
        deferred.markRemovedInRetired(registration: key.registration)
        deferred.wait(for: position, strong: key.isStrong)
        vacancies += 1
    }

    @inlinable
    @inline(always)
    mutating func tidy(_ garbage: inout _Garbage) {
        collect(&garbage)
        compact(&garbage)
    }

    /// Releases what no pass reads any more (see ``_DeferredRelease/collect(current:_:)``).
    @inlinable
    @inline(always)
    mutating func collect(_ garbage: inout _Garbage) {
        // Pending slots are the current storage's: they are released once no pass reads it, and none can enter.
        if deferred.pending.count > 0, slots.isUnread || deferred.pendingStrong > 0 { closeGate() }
        deferred.collect(current: slots, &garbage)
    }

    /// Drops the slots that removals left in the current storage, as far as the passes that read it allow.
    ///
    /// - A last slot that owns nothing any more, in a storage that no pass reads, goes at once: what a delegate
    ///   removed while it is the newest leaves (a screen that goes after the ones before it), with no vacancy.
    /// - The whole storage is rebuilt once three eighths of its slots are vacant and no pass reads it, or once half
    ///   are, whatever passes do: a rebuild under passes must copy each weak reference, an atomic operation on the
    ///   object's counts that slows passes weak-loading the same objects on other threads, and a calling thread
    ///   leaves the storage unread often enough between its passes that most rebuilds avoid that.
    @inlinable
    @inline(always)
    mutating func compact(_ garbage: inout _Garbage) {
        let last = slots.count - 1
        if last >= 0, !slots.key(at: last).ownsReferences, isCurrentUnread() {
            slots.dropLast()
            vacancies -= 1
            slots.forgetCollect()  // nothing of this storage waits for a reader any more
        }
        let count = slots.count
        guard vacancies >= 16 && vacancies * 8 >= count * 3 else { return }
        if vacancies * 2 >= count || isCurrentUnread() {
            rebuild(capacity: Self.capacityOfRebuilt(holding: count - vacancies), &garbage)
        }
    }

    /// The capacity of a rebuilt storage that holds `live` registrations: three quarters more, so that the next
    /// rebuild comes after at least `live / 2` adds or removals (see ``compact(_:)``): amortized O(1) each.
    @usableFromInline
    static func capacityOfRebuilt(holding live: Int) -> Int {
        Swift.max(live + live * 3 / 4, 8)
    }

    /// Replaces the current storage by one of at least `capacity` slots that holds its registrations in order,
    /// less the removed ones, and indexes it anew; or, if no pass reads it and it is the right size, compacts
    /// it in place, which allocates nothing. The new storage is filled before the gate shows it.
    @usableFromInline
    mutating func rebuild(capacity: Int, _ garbage: inout _Garbage) {
        let slotsMove = vacancies > 0
        let old = storage
        let isRead = !isCurrentUnread()
        if !isRead && capacity <= old.slots.capacity && old.slots.capacity <= capacity * 2 {
            var objects: [AnyObject] = []
            old.slots.compactInPlace(&objects)
            garbage.append(contentsOf: objects)
            old.slots.forgetCollect()  // what the last reader was to collect is done
        } else {
            let new = _Storage(capacity: capacity, layout: slots.layout, tickets: &tickets)
            var deferredReleases: [AnyObject] = []
            old.slots.transferRegistrations(to: new.slots, sourceIsRead: isRead, deferredReleases: &deferredReleases)
            garbage.append(contentsOf: deferredReleases)
            replaceStorage(with: new)
            deferred.retire(old, &garbage)  // with the removed slots, which it releases when it is freed
        }
        resetVacancies()
        if slotsMove {
            reindex(capacity: slots.count)
        }
    }

    /// Frees the index's buckets and the tickets, as the registry goes.
    mutating func deallocate() {
        unsafe index.deallocate()
        tickets.deallocateAll()
    }

    /// Makes `new`, filled already, the current storage, and shows its ticket at the gate, open or closed as it is:
    /// a sequentially consistent store, before the registry asks whether passes read the storage replaced (``_Gate``).
    @usableFromInline
    mutating func replaceStorage(with new: _Storage) {
        storage = new
        slots = new.slots
        gate.show(slots, closed: gateIsClosed)
    }

    /// Closes the gate, if this change has not yet, with a sequentially consistent store, before the registry asks
    /// whether passes read the current storage (see ``_Gate``): passes enter under the lock until the change ends.
    @inlinable
    @inline(always)
    mutating func closeGate() {
        guard !gateIsClosed else { return }
        gateIsClosed = true
        gate.show(slots, closed: true)
    }

    /// Opens the gate that this change closed, with release ordering, so that a pass that enters sees what the
    /// change wrote. ``_Core/change(_:)`` calls it before it lets go of the lock.
    @inlinable
    @inline(always)
    mutating func openGate() {
        gateIsClosed = false
        gate.open(showing: slots)
    }

    /// Whether no pass reads the current storage; if so, the gate is closed, and none can enter it until the change
    /// ends, which may rewrite it or release what its removed slots own. A storage that passes read leaves the gate
    /// open: a calling thread keeps entering without the lock while another thread changes the registrations.
    @inlinable
    @inline(always)
    mutating func isCurrentUnread() -> Bool {
        guard slots.isUnread else { return false }
        closeGate()
        return slots.isUnread
    }

    /// Takes back the tickets of `storages`, which no pass reads, and which the change that leaves them to its garbage
    /// frees once it has let go of the lock.
    @usableFromInline
    mutating func takeBackTickets(of storages: [_Storage]) {
        for storage in storages {
            tickets.giveBack(ticketOf: storage.slots)
        }
    }

    /// Records that the current storage holds no removed slot: it was replaced, or compacted.
    @usableFromInline
    mutating func resetVacancies() {
        deferred.forgetPending()
        vacancies = 0
    }

    /// Files every registered slot of the current storage in a new index with room for `capacity` slots.
    @usableFromInline
    mutating func reindex(capacity: Int) {
        index.removeAll(keepingRoomFor: capacity)
        index.insertRegistrations(of: slots)
    }
}
