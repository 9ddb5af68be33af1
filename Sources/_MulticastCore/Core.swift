import _MulticastShims

/// A multicast's state: its registry, the lock that guards it, and the rules for changing it.
///
/// Every change runs in ``change(_:)``: under the lock, leaving what it released to a ``_Garbage``, which is let
/// go of after unlocking, in one place; a read runs in ``withLock(_:)``. There is no other way into the lock.
/// The core knows the delegates only by their objects and their bits (see ``_Slot``), so none of it is generic.
@safe  // its registry and lock are memory of its own, reached only under its lock
@usableFromInline
package final class _Core {
    @usableFromInline
    let lock: _Lock

    /// Reached only with the lock held. In memory of its own, at an address that the core keeps in a
    /// constant, so that changing it needs no exclusivity check.
    @usableFromInline
    let registry: UnsafeMutablePointer<_Registry>

    /// The word through which passes find the current storage without the lock (see ``_Gate``), in memory of its
    /// own, which the registry writes under the lock.
    @usableFromInline
    let gate: _Gate

    /// ``_DelegateLayout/stride``, which passes read without the lock.
    @usableFromInline
    let stride: Int

    /// What the delegates' type is to the multicast, which says how it finds a delegate's object: read from the
    /// value's bits, or by a dynamic cast. Never a refused type: the multicast stops before it makes a core.
    @usableFromInline
    package let delegateKind: _DelegateKind

    /// Told of the registrations that passes unregister because they ended, while diagnostics are on somewhere.
    let endedRegistrationsObserver: (any _EndedRegistrationsObserver)?

    /// A core for delegates of `layout` and `delegateKind`, whose diagnostics are `endedRegistrationsObserver`; its
    /// owned registrations pin their owners as `ownersArePinned` says (see ``_Registry/ownersArePinned``).
    package init(
        layout: _DelegateLayout, delegateKind: _DelegateKind,
        endedRegistrationsObserver: (any _EndedRegistrationsObserver)? = nil,
        ownersArePinned: Bool = _OwnerPin.isAvailable
    ) {
        self.delegateKind = delegateKind
        self.endedRegistrationsObserver = endedRegistrationsObserver
        stride = layout.stride
        lock = _Lock()
        gate = _Gate()
        unsafe registry = .allocate(capacity: 1)
        unsafe registry.initialize(to: _Registry(layout: layout, gate: gate, ownersArePinned: ownersArePinned))
    }

    deinit {
        unsafe registry.pointee.deallocate()
        unsafe registry.deinitialize(count: 1)
        unsafe registry.deallocate()
        unsafe gate.deallocate()
    }

    /// Runs `body` with the registry, under the lock: a read, or a change that leaves nothing to release (a pass
    /// counting itself in while the gate is closed). `body` must not call out to user code, nor drop a reference
    /// that may be an object's last; a change that may uses ``change(_:)``. Both hold the lock around a closure,
    /// so that no path through it can leave the lock held.
    @inlinable
    @inline(always)
    func withLock<Result>(_ body: (inout _Registry) -> Result) -> Result {
        lock.lock()
        let result = unsafe body(&registry.pointee)
        lock.unlock()
        return result
    }

    /// Counts a pass in as a reader of the current storage, and returns what it reads: the storage's first slot,
    /// how far apart its slots are, how many it has, and the readers word to count the pass out of. Through the
    /// gate, without the lock, with one read-modify-write (see ``_Gate``); else under the lock.
    @inlinable
    @inline(always)
    func enterPass() -> (base: _Slot, stride: Int, count: Int, readers: UnsafeMutablePointer<Int>) {
        let shown = gate.loadAcquiring()
        if shown & _Gate.closedBit == 0, let ticket = unsafe UnsafeMutablePointer<_Ticket>(bitPattern: shown) {
            let readers = unsafe UnsafeMutableRawPointer(ticket).assumingMemoryBound(to: Int.self)
            _ = unsafe _multicast_fetch_add_seq_cst(readers, 1)
            if gate.loadSequentiallyConsistent() == shown {
                let header = unsafe ticket.pointee.header
                let count = unsafe _multicast_load_acquire(
                    UnsafeMutableRawPointer(header).assumingMemoryBound(to: Int.self))
                return unsafe (header.pointee.base, stride, count, readers)
            }
            if unsafe _Readers.leave(readers) { lastReaderLeft() }
        }
        return unsafe enterPassUnderTheLock()
    }

    /// ``enterPass()`` under the lock, where the gate is open: for a pass that found it closed, or changed.
    @usableFromInline
    @inline(never)
    func enterPassUnderTheLock() -> (base: _Slot, stride: Int, count: Int, readers: UnsafeMutablePointer<Int>) {
        unsafe withLock { unsafe $0.enterPass() }
    }

    /// Runs `body` on the registry with the lock held, leaving what it releases to a ``_Garbage``; then opens the
    /// gate if `body` closed it, takes back the tickets of the storages it freed, lets go of the lock, and releases
    /// that garbage: the one place that does. `body` must not call out to user code.
    @inlinable
    @inline(always)
    func change<Result>(_ body: (inout _Registry, inout _Garbage) -> Result) -> Result {
        lock.lock()
        var garbage = _Garbage()
        let result = unsafe body(&registry.pointee, &garbage)
        #if MULTICAST_INTERNAL_CHECKS
        unsafe registry.pointee.checkInvariants()
        #endif
        if unsafe registry.pointee.gateIsClosed { unsafe registry.pointee.openGate() }
        if let storages = garbage.storages { unsafe registry.pointee.takeBackTickets(of: storages) }
        lock.unlock()
        garbage.release()
        return result
    }

    /// Registers `object`, whose delegate's bits are the `layout.size` bytes at `value`, held as `holding` says,
    /// at the end, unless it is registered already, or being deallocated; returns which. An owned registration
    /// has `owner`, and replaces `owner`'s registration, if it has one; the others pass `object` as `owner`. The
    /// caller keeps the objects alive (see ``_Object``).
    @inlinable
    @inline(always)
    package func add(
        bitsOf value: UnsafeRawPointer, object: _Object, owner: _Object, holding: _Holding
    ) -> _Addition {
        var unrecorded = _Unrecorded()
        return unsafe add(bitsOf: value, object: object, owner: owner, holding: holding, recording: &unrecorded)
    }

    /// ``add(bitsOf:object:owner:holding:)``, telling `recorder` the number of the registration it makes, under the
    /// lock, before any pass can meet it: what an add that diagnostics watch records.
    @inlinable
    @inline(always)
    package func add<Recorder: _RegistrationRecorder & ~Copyable>(
        bitsOf value: UnsafeRawPointer, object: _Object, owner: _Object, holding: _Holding,
        recording recorder: inout Recorder
    ) -> _Addition {
        var searched = false
        while true {
            let outcome = change { registry, garbage in
                unsafe registry.add(
                    bitsOf: value, object: object, owner: owner, holding: holding, searched: searched,
                    recording: &recorder, &garbage)
            }
            if let addition = _Addition(outcome) { return addition }
            // The storage is full, and its registrations have doubled since the last search: before growing,
            // reclaim the slots of ended registrations, a scan that is amortized O(1) per add (see `makeRoom`).
            reclaimEndedRegistrations()
            searched = true
        }
    }

    /// Unregisters `object`, registered as a delegate of its own; returns false if it was not.
    @inlinable
    @inline(always)
    package func remove(_ object: _Object) -> Bool {
        change { registry, garbage in registry.remove(object, &garbage) }
    }

    /// Unregisters `owner`'s owned registration; returns false if it has none.
    @inlinable
    @inline(always)
    package func remove(ownedBy owner: AnyObject) -> Bool {
        let owner = unsafe _Object(owner)  // alive: the caller's argument, for the whole call
        return change { registry, garbage in unsafe registry.remove(ownedBy: owner, &garbage) }
    }

    /// The delegate of `owner`'s owned registration, if it has one.
    @inlinable
    @inline(always)
    package func delegate<Delegate>(ownedBy owner: AnyObject, as type: Delegate.Type) -> Delegate? {
        let owner = unsafe _Object(owner)  // alive: the caller's argument, for the whole call
        return withLock { registry in
            unsafe registry.withDelegate(ownedBy: owner) { slot in unsafe slot?.copyOfDelegate(as: Delegate.self) }
        }
    }

    /// The number of registrations that a pass finds alive.
    package func countAlive() -> Int {
        var pass = unsafe _Pass(self)  // `self`, the method's, outlives the pass
        var keeper: AnyObject?
        var count = 0
        while unsafe pass.next(keeping: &keeper) != nil {
            count += 1
        }
        return count
    }

    /// Whether a pass finds a registration alive.
    package func hasAlive() -> Bool {
        var pass = unsafe _Pass(self)  // `self`, the method's, outlives the pass
        var keeper: AnyObject?
        return unsafe pass.next(keeping: &keeper) != nil
    }

    /// Unregisters everything.
    @usableFromInline
    package func removeAll() {
        change { $0.removeAll(&$1) }
    }

    /// Whether `object` is registered.
    @inlinable
    @inline(always)
    package func contains(_ object: _Object) -> Bool {
        withLock { registry in registry.find(object, owned: false) != nil }
    }

    /// What a pass does as it ends when it found registrations ended (see ``_Pass/end()``): in one trip through the
    /// lock, ``_Registry/reclaimEnded(in:stride:from:to:readers:reporting:_:_:)``, and the report to diagnostics.
    @usableFromInline
    @inline(never)
    func passEnded(
        findingEndedIn base: _Slot, stride: Int, from first: Int, to end: Int, readers: UnsafeMutablePointer<Int>
    ) {
        let observer = _Diagnostics.areOnAnywhere ? endedRegistrationsObserver : nil
        change { registry, garbage in
            var ended: [Int64] = []
            unsafe registry.reclaimEnded(
                in: base, stride: stride, from: first, to: end, readers: readers, reporting: observer != nil, &ended,
                &garbage)
            if let observer, ended.count > 0 { observer.registrationsEnded(ended) }
        }
    }

    /// What a pass does as it ends when it was the last reader of a storage whose registry waits for its readers:
    /// collects what waited.
    @usableFromInline
    @inline(never)
    func lastReaderLeft() {
        change { $0.collect(&$1) }
    }

    /// Unregisters the registrations that have ended with their owners: a pass over every slot marks them, and
    /// unregisters them as it ends (see ``_Pass/end()``). A pass, outside the lock: its weak load (or a pinned
    /// owner's retain) retains the owner, whose release may run its deinit, which may call back into the multicast.
    @usableFromInline
    func reclaimEndedRegistrations() {
        var pass = unsafe _Pass(self)
        pass.markEndedRegistrations()
    }
}

/// What an add tells as it makes a registration (see ``_Core/add(bitsOf:object:owner:holding:recording:)``): under the
/// core's lock, so it must not take that lock, nor call out to user code.
@usableFromInline
package protocol _RegistrationRecorder: ~Copyable {
    /// The add is making registration number `registration`; no pass can meet it yet.
    mutating func registering(_ registration: Int64)
}

/// The recorder of an add that nobody records: it does nothing, and, inlined, costs nothing.
@frozen
@usableFromInline
package struct _Unrecorded: _RegistrationRecorder {
    @inlinable
    @inline(always)
    package init() {}

    @inlinable
    @inline(always)
    package mutating func registering(_ registration: Int64) {}
}

/// What ``_Core/add(bitsOf:object:owner:holding:)`` did.
@usableFromInline
package enum _Addition {
    case added
    /// The owner had a registration, which the new one replaced.
    case replaced
    /// The object is registered already, with the retention asked for: nothing changed.
    case alreadyRegistered
    /// The object is registered already, with the other retention: nothing changed.
    case registeredWithOtherRetention
    /// The object is being deallocated (the add was made from its deinit): it could never be called.
    case deallocating
    /// The owner is being deallocated (the add was made from its deinit): nothing was registered.
    case ownerDeallocating

    /// What the registry's add did, or nil when its storage was full, which the add answers by making room and
    /// trying again.
    @inlinable
    @inline(always)
    init?(_ outcome: _Registry.AddOutcome) {
        switch outcome {
        case .added: self = .added
        case .replaced: self = .replaced
        case .alreadyRegistered: self = .alreadyRegistered
        case .registeredWithOtherRetention: self = .registeredWithOtherRetention
        case .deallocating: self = .deallocating
        case .ownerDeallocating: self = .ownerDeallocating
        case .full: return nil
        }
    }
}

/// What a registry change leaves to release once the lock is let go of: a delegate's deinit may call back into
/// the multicast, so no reference that may be an object's last is dropped under the lock. The first object has a
/// field of its own and the lists are optional, so that a change that leaves nothing, or one object (a strong
/// delegate's removal), makes no array.
@frozen
@usableFromInline
struct _Garbage {
    /// The first object whose last release must wait: a strong delegate that a removed slot owned, or, with the
    /// Objective-C runtime, the object of a weak delegate held while its reference was copied or moved.
    @usableFromInline
    var object: AnyObject?

    /// The objects after the first.
    @usableFromInline
    var objects: [AnyObject]?

    /// Storages that no pass reads any more.
    @usableFromInline
    var storages: [_Storage]?

    @inlinable
    @inline(always)
    init() {}

    @inlinable
    @inline(always)
    mutating func append(_ object: AnyObject) {
        if self.object == nil {
            self.object = object
        } else {
            appendMore(object)
        }
    }

    @usableFromInline
    mutating func appendMore(_ object: AnyObject) {
        objects = (objects ?? []) + [object]
    }

    @usableFromInline
    mutating func append(contentsOf objects: [AnyObject]) {
        for object in objects { append(object) }
    }

    @usableFromInline
    mutating func append(_ storage: _Storage) {
        storages = (storages ?? []) + [storage]
    }

    /// Releases the storages' slots, after unlocking, before the garbage goes (which releases the rest), so that a
    /// delegate's deinit that uses the multicast finds it consistent.
    @inlinable
    @inline(always)
    func release() {
        if let storages { Self.release(storages) }
    }

    @usableFromInline
    static func release(_ storages: [_Storage]) {
        for storage in storages {
            storage.slots.releaseAll()
        }
    }
}
