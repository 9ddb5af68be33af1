/// A multicast's state: its registry, the lock that guards it, and the rules for changing it.
///
/// Every change runs between ``beginChange()`` and ``endChange(_:)``: under the lock, leaving what it released
/// to a ``_Garbage``, which is let go of after unlocking, in one place. The core knows the delegates only by
/// their objects and their bits (see ``_Slot``), so none of it is generic (see "Writing the call path" in
/// CONTRIBUTING.md).
@usableFromInline
package final class _Core {
    @usableFromInline
    let lock: _Lock

    /// Reached only with the lock held. In memory of its own, at an address that the core keeps in a
    /// constant, so that changing it needs no exclusivity check.
    @usableFromInline
    let registry: UnsafeMutablePointer<_Registry>

    /// Whether every value of the delegates' type is a class reference, which ``_Slot/object(of:knownToBeOne:)``
    /// then reads without a dynamic cast.
    @usableFromInline
    package let delegatesAreReferences: Bool

    /// What diagnostics keep: the label, the settings, the sites (see Diagnostics.swift). Guarded by the lock; nil
    /// for a multicast that has none of them.
    var notes: _Notes?

    package init(layout: _DelegateLayout, delegatesAreReferences: Bool, label: String? = nil) {
        self.delegatesAreReferences = delegatesAreReferences
        lock = _Lock()
        registry = .allocate(capacity: 1)
        registry.initialize(to: _Registry(layout: layout))
        if let label { notes = _Notes(label: label) }
    }

    deinit {
        if notes?.settings != nil { _Diagnostics.count(on: false) }
        registry.pointee.deallocateIndex()
        registry.deinitialize(count: 1)
        registry.deallocate()
    }

    /// Runs `body` with the registry, under the lock. `body` must not call out to user code.
    @inlinable
    @inline(always)
    func withLock<Result>(_ body: (inout _Registry) -> Result) -> Result {
        lock.lock()
        let result = body(&registry.pointee)
        lock.unlock()
        return result
    }

    /// Runs `change` on the registry with the lock held, then releases what it left to release, with the lock
    /// let go of.
    @usableFromInline
    func change<Result>(_ change: (inout _Registry, inout _Garbage) -> Result) -> Result {
        var garbage = beginChange()
        let result = change(&registry.pointee, &garbage)
        endChange(garbage)
        return result
    }

    /// Takes the lock for a change of the registry, and gives what the change is to leave to release.
    @inlinable
    @inline(always)
    func beginChange() -> _Garbage {
        lock.lock()
        return _Garbage()
    }

    /// Ends a change: lets go of the lock, then releases what the change left: the one place that does.
    @inlinable
    @inline(always)
    func endChange(_ garbage: consuming _Garbage) {
        #if MULTICAST_INTERNAL_CHECKS
        registry.pointee.checkInvariants()
        #endif
        lock.unlock()
        garbage.release()
    }

    /// Registers `object`, whose delegate's bits are the `layout.size` bytes at `value`, at the end, unless it
    /// is registered already; returns whether it was added, or nil if it is being deallocated.
    ///
    /// Objects pass through the core unretained, as `Unmanaged`: the caller keeps them alive (see "Writing the
    /// call path" in CONTRIBUTING.md).
    @inlinable
    @inline(always)
    package func add(bitsOf value: UnsafeRawPointer, object: Unmanaged<AnyObject>, strong: Bool) -> Bool? {
        var mayGrow = false
        while true {
            var garbage = beginChange()
            let outcome = registry.pointee.add(
                bitsOf: value, object: object, strong: strong, mayGrow: mayGrow, &garbage)
            endChange(garbage)
            switch outcome {
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

    /// Unregisters `object`; returns false if it was not registered.
    @inlinable
    @inline(always)
    package func remove(_ object: Unmanaged<AnyObject>) -> Bool {
        var garbage = beginChange()
        let removed = registry.pointee.remove(object, &garbage)
        endChange(garbage)
        return removed
    }

    /// Unregisters everything.
    @usableFromInline
    package func removeAll() {
        change { $0.removeAll(&$1) }
    }

    /// Whether `object` is registered.
    @inlinable
    @inline(always)
    package func contains(_ object: Unmanaged<AnyObject>) -> Bool {
        lock.lock()
        let found = registry.pointee.find(object) != nil
        lock.unlock()
        return found
    }

    /// Whether a pass that visited `visited` slots and found `dead` weak delegates dead among them should
    /// reclaim them: when they are a quarter of the slots or more. With the reclaim before a storage grows
    /// (see ``add(bitsOf:object:strong:)``), this bounds the slots that dead delegates take.
    @inlinable
    @inline(always)
    static func isWorthReclaiming(dead: Int, visited: Int) -> Bool {
        dead > 0 && dead &* 4 >= visited
    }

    /// What a pass does as it ends, when it was the last reader of a storage whose registry waits for its
    /// readers, or when it found enough dead delegates to reclaim.
    @usableFromInline
    @inline(never)
    func passEnded(collect: Bool, reclaim: Bool) {
        if collect { change { $0.collect(&$1) } }
        if reclaim { reclaimDeadDelegates() }
    }

    /// Unregisters the weak delegates that have died.
    ///
    /// Finding them takes a weak load of every delegate, which must happen outside the lock: the load retains
    /// the object, and if the last other reference goes meanwhile, releasing it runs the object's deinit,
    /// which may call back into this multicast. So a pass finds them, and the registry checks each again.
    @usableFromInline
    func reclaimDeadDelegates() {
        var dead: [(position: Int, key: _SlotKey)] = []
        do {
            var pass = _Pass(self)
            while let found = pass.nextDead() {
                dead.append(found)
            }
            // The pass counted no dead delegate, so it does not reclaim again as it ends.
        }
        if !dead.isEmpty {
            change { $0.reclaim(dead, &$1) }
        }
    }
}

/// What a registry change leaves to release once the lock is let go of: a delegate's deinit may call back into
/// the multicast, so no reference that may be an object's last is dropped under the lock.
///
/// Most changes leave nothing, and a removal of a strong delegate one object: the first object has a field of
/// its own and the lists are optional, so that such a change makes no array (see "Writing the call path" in
/// CONTRIBUTING.md).
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

    /// Releases everything; call it after unlocking. Each storage's slots are released before the storage
    /// goes, so that a delegate's deinit that uses the multicast finds it consistent.
    @inlinable
    @inline(always)
    consuming func release() {
        if let storages { Self.release(storages) }
    }

    @usableFromInline
    static func release(_ storages: [_Storage]) {
        for storage in storages {
            storage.slots.releaseAll()
        }
    }
}
