import _MulticastShims

// The members of the call path are `@inline(always)`: see "Writing the call path" in CONTRIBUTING.md.

/// A weak reference to any object.
@frozen
@usableFromInline
struct _WeakReference {
    @usableFromInline
    weak var object: AnyObject?

    @inlinable
    @inline(always)
    init(_ object: AnyObject?) {
        self.object = object
    }
}

/// How a registration holds its delegate, and what ends it: each registration has an *owner*, the object it is
/// found by and whose life it may end with.
///
/// - `weak`: the delegate is its own owner, held weakly; the registration ends when the delegate dies.
/// - `strong`: the delegate is its own owner, held strongly; only a removal ends the registration.
/// - `owned`: the delegate is held strongly, and its owner, another object, by its unowned count (see ``_OwnerPin``)
///   or else weakly; the registration ends when the owner dies.
@frozen
@usableFromInline
package enum _Holding {
    case weak
    case strong
    case owned

    /// Whether the registration owns a count on the delegate.
    @inlinable
    @inline(always)
    var isStrong: Bool {
        switch self {
        case .weak: false
        case .strong, .owned: true
        }
    }

    /// Whether the registration ends when its owner dies.
    @inlinable
    @inline(always)
    var endsWithOwner: Bool {
        switch self {
        case .weak, .owned: true
        case .strong: false
        }
    }
}

/// What a slot holds, in the one word of it that changes while passes read it: the registration number, and
/// whether the delegate is held strongly, whether the owner's life (through a weak reference to it, or its
/// unowned count) decides that the slot may be called, whether a pass found that registration ended, whether it
/// has been removed, and whether it has had its references released.
///
/// A key is positive exactly while its slot may be called; a removal sets the sign bit. The registration
/// number survives every change, so that slots, which are in registration order, can be found by binary
/// search. The key has 64 bits on every platform, 32-bit watchOS included: registration numbers have 58 bits,
/// which a multicast adding a billion delegates a second would use up in 9 years.
@frozen
@usableFromInline
struct _SlotKey: Equatable {
    @usableFromInline
    var rawValue: Int64

    /// The slot owns a count on the delegate's object.
    @inlinable
    @inline(always)
    static var strongBit: Int64 { 1 }

    @inlinable
    @inline(always)
    static var releasedBit: Int64 { 2 }

    /// The slot's weak reference to its owner decides whether it may be called.
    @inlinable
    @inline(always)
    static var weakOwnerBit: Int64 { 4 }

    /// The slot holds one unowned count on its owner, whose deinit's start decides whether it may be called
    /// (see ``_OwnerPin``).
    @inlinable
    @inline(always)
    static var pinnedOwnerBit: Int64 { 8 }

    /// A pass found the registration ended (its owner deallocated), and the registry is to unregister it: set by
    /// passes, without the lock (see ``_Slot/markEnded()``), and read under it.
    @inlinable
    @inline(always)
    static var endedBit: Int64 { 16 }

    @inlinable
    @inline(always)
    static var removedBit: Int64 { Int64.min }

    /// How far the registration number is shifted past the flags.
    @inlinable
    @inline(always)
    static var registrationShift: Int64 { 5 }

    /// The largest registration number a key can hold.
    @inlinable
    @inline(always)
    static var maximumRegistration: Int64 { Int64.max >> registrationShift }

    @inlinable
    @inline(always)
    init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The key of a new registration; an owned one pins its owner as `pinsOwner` says, or, if nil, wherever owners
    /// can be pinned (see ``_OwnerPin``).
    @inlinable
    @inline(always)
    init(registration: Int64, holding: _Holding, pinsOwner: Bool? = nil) {
        precondition(
            registration > 0 && registration <= Self.maximumRegistration, "Multicast ran out of registration numbers")
        let flags: Int64
        switch holding {
        case .weak: flags = Self.weakOwnerBit
        case .strong: flags = Self.strongBit
        case .owned:
            flags = Self.strongBit | (pinsOwner ?? _OwnerPin.isAvailable ? Self.pinnedOwnerBit : Self.weakOwnerBit)
        }
        rawValue = registration << Self.registrationShift | flags
    }

    /// Whether a pass may call the slot's delegate (if its owner, when held weakly, is still alive).
    @inlinable
    @inline(always)
    var isCallable: Bool { rawValue > 0 }

    /// Whether the slot owns a count on the delegate: a strong or an owned registration.
    @inlinable
    @inline(always)
    var isStrong: Bool { rawValue & Self.strongBit != 0 }

    /// Whether the registration ends when its owner dies: a weak or an owned registration.
    @inlinable
    @inline(always)
    var endsWithOwner: Bool { rawValue & (Self.weakOwnerBit | Self.pinnedOwnerBit) != 0 }

    /// Whether the slot's weak reference is its owner's: a weak registration, or an owned one whose owner is not
    /// pinned. Every other slot's weak reference is nil, which owns nothing.
    @inlinable
    @inline(always)
    var holdsWeakReference: Bool { rawValue & Self.weakOwnerBit != 0 }

    /// Whether the slot holds its owner by an unowned count, not a weak reference: an owned registration, where
    /// the runtime allows it.
    @inlinable
    @inline(always)
    var pinsOwner: Bool { rawValue & Self.pinnedOwnerBit != 0 }

    /// Whether the owner is another object than the delegate: an owned registration.
    @inlinable
    @inline(always)
    var isOwned: Bool { isStrong && endsWithOwner }

    /// How the registration holds its delegate.
    @inlinable
    var holding: _Holding {
        isOwned ? .owned : isStrong ? .strong : .weak
    }

    /// Whether a pass found the registration ended with its owner (see ``_Slot/markEnded()``).
    @inlinable
    @inline(always)
    var isEnded: Bool { rawValue & Self.endedBit != 0 }

    /// Whether the slot still owns its weak reference and, if strong, its delegate.
    @inlinable
    @inline(always)
    var ownsReferences: Bool { rawValue & Self.releasedBit == 0 }

    @inlinable
    @inline(always)
    var registration: Int64 { (rawValue & ~Self.removedBit) >> Self.registrationShift }

    @inlinable
    @inline(always)
    var removed: _SlotKey { _SlotKey(rawValue: rawValue | Self.removedBit) }

    @inlinable
    @inline(always)
    var released: _SlotKey { _SlotKey(rawValue: rawValue | Self.releasedBit | Self.removedBit) }
}

/// The part of a slot that a pass reads first: its key, and the weak reference to its owner that says whether
/// the registration may be called; and the owner's address, which the index files the slot under. It is the
/// same type whatever the delegates' type, so its fields have the same offsets whatever code reads them,
/// optimized or not.
@frozen
@usableFromInline
struct _SlotState {
    /// The raw value of a ``_SlotKey``, read and written only through ``_Slot``. It is the first field, so
    /// that its address is the state's.
    @usableFromInline
    var key: Int64

    /// A weak reference to the owner, for a registration that ends with it and does not pin it; nil otherwise.
    @usableFromInline
    var reference: _WeakReference

    /// The owner's address: the delegate's object for a weak or strong registration. Read without touching the
    /// owner, which may be dead; a pinned owner's memory stays there while the slot owns its unowned count.
    @usableFromInline
    let owner: UInt

    @inlinable
    @inline(always)
    init(key: _SlotKey, reference: _WeakReference, owner: UInt) {
        self.key = key.rawValue
        self.reference = reference
        self.owner = owner
    }
}

/// Whether a pass may call a slot's delegate, as ``_Slot/liveness`` tells.
@usableFromInline
enum _Liveness {
    /// The slot holds no registration: its delegate was removed, or found dead and reclaimed.
    case unregistered
    /// The slot's registration ended with its owner, which has been deallocated: a weak delegate, or the owner of
    /// an owned one. Its key is `key`.
    case dead(key: _SlotKey)
    /// The delegate is held strongly, with no owner to outlive, and may be called: its storage keeps it alive.
    case strong
    /// The owner, held weakly or pinned, is alive, and the delegate may be called: `keeper`, the owner that the
    /// slot loaded, keeps it alive meanwhile, and with it a weak delegate, which is its own owner; the
    /// storage keeps an owned delegate alive.
    case ownerAlive(keeper: AnyObject)
}

/// One registration: a ``_SlotState`` and, beside it in another array of the storage, the delegate's bits.
///
/// The tricks that Multicast plays with a delegate's representation are here, under one invariant, with the one
/// that the invariant rests on: ``_DelegateKind/withBitsToStore(of:object:_:)`` re-boxes a delegate of a
/// multicast of `Any` around its object before it is stored.
///
/// - The first word of a stored delegate is its object's address: a value that may box its object is stored only
///   after it is unboxed. So a delegate is owned by owning its object.
/// - A slot is initialized by ``occupy(withBitsOf:size:object:owner:key:)``. From then on only its key changes, with
///   atomic stores made under the multicast's lock, until ``release()`` or
///   ``transfer(to:size:sourceIsRead:deferredReleases:)`` destroys or moves what it owns; each of those happens only
///   while no pass reads the storage.
/// - The delegate's bits hold no reference count. A slot owns its weak reference to its owner and, when the key
///   says strong, one count on the delegate's object. A weak delegate's bits may be read only while the object
///   that its weak reference loaded is held; a strong or owned one's while the storage is read.
/// - The delegates' memory is bound to no type: it is read as `Delegate`, and its first word as a pointer, through
///   typed pointers, outside the rule of `assumingMemoryBound(to:)` ("must be bound to T"). That holds because
///   the memory is written only by `copyMemory(from:byteCount:)`, an untyped copy, and never while a pass reads
///   it, so no typed read can be reordered against a write.
///
/// That is what makes a weak delegate cost one weak load per call, and no `as? Delegate` cast, and what lets
/// the rest of the core work without knowing the delegates' type.
@frozen
@unsafe
@usableFromInline
package struct _Slot {
    @usableFromInline
    let state: UnsafeMutablePointer<_SlotState>

    /// The delegate's bits.
    @usableFromInline
    let delegate: UnsafeMutableRawPointer

    @inlinable
    @inline(always)
    init(state: UnsafeMutablePointer<_SlotState>, delegate: UnsafeMutableRawPointer) {
        unsafe self.state = unsafe state
        unsafe self.delegate = unsafe delegate
    }

    /// The slot `distance` slots after this one, in a storage whose delegates are `stride` bytes apart.
    @inlinable
    @inline(always)
    func advanced(by distance: Int, stride: Int) -> _Slot {
        unsafe _Slot(state: state + distance, delegate: delegate + distance &* stride)
    }

    /// The key word, as an atomic operation needs it.
    @inlinable
    @inline(always)
    var keyWord: UnsafeMutablePointer<Int64> {
        unsafe UnsafeMutableRawPointer(state).assumingMemoryBound(to: Int64.self)
    }

    /// The key, read with or without the lock.
    @inlinable
    @inline(always)
    var key: _SlotKey {
        unsafe _SlotKey(rawValue: _multicast_load_relaxed_64(keyWord))
    }

    /// Records in the key that a pass found the slot's registration ended with its owner: the one change that a
    /// pass makes, without the lock, for the registry to unregister the registration at the pass's end (see
    /// ``_Registry/reclaimEnded(in:stride:from:to:readers:reporting:_:_:)``). An atomic OR, so that it keeps any
    /// other change of the key; a registration that has ended stays ended, so the bit is true whenever it is read.
    @inlinable
    @inline(always)
    func markEnded() {
        unsafe _multicast_fetch_or_relaxed_64(keyWord, _SlotKey.endedBit)
    }

    /// Changes the key; call it with the lock held.
    ///
    /// A relaxed store is enough: a pass that reads the key after `remove` returned (in the order that the
    /// lock or any other synchronization gives) sees it, by the coherence of one memory word; and nothing
    /// else that a pass reads changes with it.
    @inlinable
    @inline(always)
    func storeKey(_ key: _SlotKey) {
        unsafe _multicast_store_relaxed_64(keyWord, key.rawValue)
    }

    /// Whether a pass may call the delegate: the one place that decides it, for every pass. (Lookups under the
    /// lock ask ``holdsRegistration(ofOwnerAt:)``; the search for dead registrations, and an add's check of the
    /// owner it adds, ``ownerIsDead``.)
    ///
    /// A weak load under the lock is safe only where the caller holds the object it may load (see
    /// ``_Registry/find(_:owned:)``): releasing the loaded object could otherwise run its deinit under the lock.
    @inlinable
    @inline(always)
    var liveness: _Liveness {
        let key = unsafe key
        guard key.isCallable else { return .unregistered }
        // A weak delegate first, the common case, with one test of the key as for a strong one.
        if key.holdsWeakReference {
            guard let object = unsafe state.pointee.reference.object else { return .dead(key: key) }
            return .ownerAlive(keeper: consume object)
        }
        guard key.pinsOwner else { return .strong }
        guard unsafe _OwnerPin.tryRetain(state.pointee.owner) else { return .dead(key: key) }
        return unsafe .ownerAlive(keeper: _OwnerPin.takeRetained(state.pointee.owner))
    }

    /// Whether the slot holds the registration, not unregistered, whose owner is the object at `address`, which
    /// the caller holds: the test of a lookup under the lock. Its weak load is safe there, since it can only load
    /// that object, or nil (an owner that died at what is now its address, or the caller in its deinit).
    ///
    /// A pinned owner's address is its own while the slot pins it, so the address says it all, with no load: the
    /// slot is the caller's registration, even from the caller's deinit, where the registration has ended. There a
    /// removal unregisters it, as it should, an add checks the owner first, and a lookup of the delegate asks
    /// ``ownerIsDead``.
    @inlinable
    @inline(always)
    func holdsRegistration(ofOwnerAt address: UInt) -> Bool {
        let key = unsafe key
        guard unsafe key.isCallable && state.pointee.owner == address else { return false }
        guard key.holdsWeakReference else { return true }
        switch unsafe state.pointee.reference.object {
        case .some(let object): return unsafe UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) == address
        case .none: return false
        }
    }

    /// Whether the owner of a registration that ends with it has been deallocated: its weak reference loads nil,
    /// or its pinned deinit has started. With no ``_Liveness`` to make and destroy: for the checks that need only
    /// this, where a debug build would pay for one (an add's check of the owner it adds, where owners are not
    /// pinned; the search for dead registrations; the lookup of an owner's delegate).
    @inlinable
    @inline(always)
    var ownerIsDead: Bool {
        if unsafe key.pinsOwner {
            return unsafe _OwnerPin.isDead(state.pointee.owner)
        }
        switch unsafe state.pointee.reference.object {
        case .none: return true
        case .some: return false
        }
    }

    /// The address of the slot's owner, which the index files it under, read without touching the owner, which
    /// may be dead.
    @inlinable
    @inline(always)
    var address: UInt {
        unsafe state.pointee.owner
    }

    /// The delegate's object, unretained: the bits' first word; the one whose count a strong or owned slot owns,
    /// and which the pass keeps alive for a slot it has just given.
    @inlinable
    @inline(always)
    package var object: _Object {
        unsafe _Object(address: UnsafeRawPointer(delegate).assumingMemoryBound(to: UnsafeRawPointer.self).pointee)
    }

    /// The owner, unretained: the delegate's object but for an owned registration. Valid while something keeps the
    /// owner alive: a pass keeps it through the turn of the delegate it gave (see ``_Pass/next(keeping:)``).
    package var owner: _Object {
        unsafe _Object(address: UnsafeRawPointer(bitPattern: state.pointee.owner)!)
    }

    /// Fills the uninitialized slot with a copy of `size` bytes at `value`, the bits of a delegate whose object
    /// is `object`, registered by `owner` (`object` itself, but for an owned registration). A strong or owned
    /// registration takes a count on `object`; a weak one, a weak reference to `owner`, and an owned one, an
    /// unowned count on it or else a weak reference, as its key says.
    @inlinable
    @inline(always)
    func occupy(
        withBitsOf value: UnsafeRawPointer, size: Int, object: _Object, owner: _Object,
        key: _SlotKey
    ) {
        // A bit copy of a value that is not trivial, outside the rule of `copyMemory(from:byteCount:)`, whose
        // memory "must be initialized to a trivial type". It holds because of the invariant above: the copy
        // takes no count, and nothing ever destroys these bits, so no reference is counted twice or lost; the
        // one reference counted in them, the object, is owned by the slot's weak reference or strong count
        // instead, and the rest (witness tables, type metadata) is never counted.
        unsafe delegate.copyMemory(from: value, byteCount: size)
        if key.isStrong {
            unsafe object.retain()  // the slot's count, which `release()` gives back
        }
        // A state whose weak reference is nil, bit-copied in: a nil weak reference owns nothing (no count, no side
        // table, no entry in the Objective-C runtime's weak table), so each of the two is a nil reference of its
        // own, and the one here is destroyed as usual.
        var filled = _SlotState(
            key: key, reference: _WeakReference(nil), owner: owner.address)
        unsafe Self.copyBits(of: &filled, to: state)
        if key.pinsOwner {
            unsafe _OwnerPin.pin(filled.owner)  // the slot's unowned count, which `release()` gives back
        } else if key.endsWithOwner {
            // The weak reference is made in place: built first as a value, it would be copied into the slot
            // and destroyed, two more atomic operations on the owner's weak count.
            unsafe state.pointee.reference.object = owner.takeUnretainedValue()
        }
    }

    /// Whether `object` is being deallocated (its deinit has started): one load of its counts where owners are
    /// pinned (``_OwnerPin/isAvailable``, which the caller passes); else a weak reference to it, which is nil from
    /// the start though the caller holds it, and gives a Swift object the side table that it needs for the rest of
    /// the object's life.
    @inlinable
    @inline(always)
    static func isDeallocating(_ object: _Object, ownersArePinned: Bool) -> Bool {
        if ownersArePinned {
            return unsafe _OwnerPin.isDead(object.address)
        }
        return unsafe _WeakReference(object.takeUnretainedValue()).object == nil
    }

    /// Initializes the uninitialized `target` with this slot's registration, and appends a live owner that its
    /// weak reference loaded to `deferredReleases`, to be released after the lock is let go of (see ``_Garbage``).
    ///
    /// If passes may be reading this slot, it keeps what it owns, and `target` takes counts of its own (a copy
    /// of the weak reference, a pinned owner's unowned count, and a count on a strong or owned delegate's object).
    /// Otherwise the references move, and this slot no longer owns them. A state whose weak reference is nil is
    /// bit-copied, as `occupy` fills it, with no call to the runtime; of any other, no raw byte of the weak
    /// reference is read: where the runtime zeroes a reference to an object being deallocated, as the Objective-C
    /// runtime does, they may be changing.
    ///
    /// With the Objective-C runtime (Apple platforms), the deferred releases take the last release of a delegate
    /// out of the lock: copying or moving an Objective-C weak reference may load its object retained and release
    /// it afterwards (objc4's `objc_copyWeak`, and `objc_moveWeak` in older releases), which, if another thread
    /// let go of the object meanwhile, would run its deinit here. Native Swift weak references, the only kind
    /// elsewhere, are copied and moved by counting the weak reference alone, and need no deferred releases.
    @inline(always)
    func transfer(to target: _Slot, size: Int, sourceIsRead: Bool, deferredReleases: inout [AnyObject]) {
        let key = unsafe key
        #if _runtime(_ObjC)
        if key.endsWithOwner, let object = unsafe state.pointee.reference.object {
            deferredReleases.append(object)
        }
        #endif
        // A bit copy of a value that is not trivial, outside the rule of `copyMemory(from:byteCount:)` ("must be
        // initialized to a trivial type"). It holds as in `occupy`: the bits carry no count, and what owns the
        // object, the weak reference or the strong count, is copied or moved below, by the state's own rules.
        unsafe target.delegate.copyMemory(from: delegate, byteCount: size)
        if sourceIsRead {
            if key.isStrong {
                unsafe object.retain()
            }
            if key.pinsOwner {
                unsafe _OwnerPin.pin(state.pointee.owner)
            }
            if key.holdsWeakReference {
                unsafe target.state.initialize(
                    to: _SlotState(key: key, reference: state.pointee.reference, owner: state.pointee.owner))
            } else {
                unsafe Self.copyBits(of: state, to: target.state)  // a nil weak reference owns nothing (see `occupy`)
            }
        } else {
            if key.holdsWeakReference {
                unsafe target.state.moveInitialize(from: state, count: 1)
            } else {
                unsafe Self.copyBits(of: state, to: target.state)
            }
            unsafe storeKey(key.released)  // moved out: nothing may destroy it again
        }
    }

    /// Destroys what the slot owns, and marks it released; returns a strong delegate's object, whose count the
    /// slot owned, so that the caller can release it outside the lock (its deinit may call back into the
    /// multicast). No pass may be reading the slot.
    ///
    /// The weak reference, if it is the owner's, is set to nil, which destroys it as deinitializing the state
    /// would: a released slot's state owns nothing, and is filled again as if uninitialized.
    @inlinable
    @inline(always)
    func release() -> AnyObject? {
        let key = unsafe key
        guard key.ownsReferences else { return nil }
        if key.pinsOwner {
            unsafe _OwnerPin.unpin(state.pointee.owner)
        } else if key.holdsWeakReference {
            unsafe state.pointee.reference.object = nil
        }
        unsafe storeKey(key.released)
        guard key.isStrong else { return nil }
        return unsafe object.takeRetainedValue()
    }

    /// Calls `body` with the delegate, without retaining or releasing it. The caller keeps it alive: by
    /// holding the object that its weak load returned, or, for a strong delegate, by reading the storage.
    ///
    /// The delegate's bits are copied into stack space, where they are a delegate that owns no count, read
    /// through a typed pointer as the storage's are: a bit copy of a value that is not trivial, outside the rule
    /// of `copyMemory(from:byteCount:)` ("must be initialized to a trivial type"). It holds because the delegate
    /// is moved out of the space and back around `body`, never copied or destroyed, and the space is trivial, so
    /// nothing destroys it afterwards: no count is taken or dropped. `body` borrows the value, as any closure
    /// parameter, and copies it if it keeps it. So this costs no reference count in an unoptimized build either,
    /// where a read through a pointer would copy the delegate, and a move out of a pointer and back is two
    /// generic calls.
    @inlinable
    @inline(always)
    package func lend<Delegate, Result, Failure: Error>(
        as type: Delegate.Type, _ body: (Delegate) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if MemoryLayout<Delegate>.size <= MemoryLayout<_LendingSpace>.size
            && MemoryLayout<Delegate>.alignment <= MemoryLayout<_LendingSpace>.alignment
        {
            var space = _LendingSpace()
            return unsafe try Self.lend(in: &space, bitsAt: delegate, to: body)
        }
        // A delegate type of more than six words (a composition of several protocols that are not class-bound):
        // the space is an optional variable, whose nil takes the type's spare bits, so that the bits make it
        // `.some` of the delegate; it is overwritten with a nil after use, which it then destroys.
        var lent: Delegate? = nil
        unsafe Self.fill(&lent, withBitsAt: delegate)
        do throws(Failure) {
            let result = unsafe try Self.lend(moving: &lent!, to: body)
            unsafe Self.forget(&lent)
            return result
        } catch {
            unsafe Self.forget(&lent)
            throw error
        }
    }

    /// Calls `body` with the delegate whose bits are at `bits`, copied into `space`, which has room for it.
    @inlinable
    @inline(always)
    static func lend<Delegate, Result, Failure: Error>(
        in space: UnsafeMutableRawPointer, bitsAt bits: UnsafeRawPointer, to body: (Delegate) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        unsafe space.copyMemory(from: bits, byteCount: MemoryLayout<Delegate>.size)
        return unsafe try lend(moving: &space.assumingMemoryBound(to: Delegate.self).pointee, to: body)
    }

    /// Calls `body` with the delegate in `lent`, moved out of it and back.
    @inlinable
    @inline(always)
    static func lend<Delegate, Result, Failure: Error>(
        moving lent: inout Delegate, to body: (Delegate) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let delegate = consume lent
        do throws(Failure) {
            let result = try body(delegate)
            lent = consume delegate
            return result
        } catch {
            lent = consume delegate
            throw error
        }
    }

    /// Overwrites `lent`, a nil, with the delegate's bits at `bits`: then it is `.some` of them, since a delegate
    /// type has spare bits for the nil (see ``_DelegateLayout``).
    @inlinable
    @inline(always)
    static func fill<Delegate>(_ lent: UnsafeMutablePointer<Delegate?>, withBitsAt bits: UnsafeRawPointer) {
        unsafe UnsafeMutableRawPointer(lent).copyMemory(from: bits, byteCount: MemoryLayout<Delegate>.size)
    }

    /// Overwrites `lent` with a nil, bit for bit, without destroying the delegate it holds, which owns no count.
    @inlinable
    @inline(always)
    static func forget<Delegate>(_ lent: UnsafeMutablePointer<Delegate?>) {
        var none: Delegate? = nil
        unsafe copyBits(of: &none, to: lent)
    }

    /// Overwrites `target` with the bits of `source`, without destroying what it holds: for a value whose copy
    /// owns nothing (a nil, a slot state whose weak reference is nil), and a target that owns nothing either.
    @inlinable
    @inline(always)
    static func copyBits<Value>(of source: UnsafePointer<Value>, to target: UnsafeMutablePointer<Value>) {
        unsafe UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: MemoryLayout<Value>.size)
    }

    /// A strong reference to the delegate, for a caller that keeps it past its turn; the caller keeps it alive
    /// meanwhile, as for ``lend(as:_:)``.
    @inlinable
    @inline(always)
    package func copyOfDelegate<Delegate>(as type: Delegate.Type) -> Delegate {
        unsafe UnsafeRawPointer(delegate).assumingMemoryBound(to: Delegate.self).pointee
    }

    /// How the multicast holds the delegate: set when the slot is filled, it never changes.
    package var holding: _Holding {
        unsafe key.holding
    }

    /// Whether the multicast holds the delegate strongly: a strong or owned registration.
    package var isStrong: Bool {
        unsafe key.isStrong
    }
}

/// Stack space for a lent delegate (see ``_Slot/lend(as:_:)``): six words, room for a delegate of a class, of a
/// protocol or of a composition of a few. Trivial, so that nothing destroys what it holds.
@frozen
@usableFromInline
struct _LendingSpace {
    @usableFromInline
    var words: (UInt, UInt, UInt, UInt, UInt, UInt)

    @inlinable
    @inline(always)
    init() {
        words = (0, 0, 0, 0, 0, 0)
    }
}

/// Every pointer operation on a storage's slots: a value of pointers and numbers only, which code copies and
/// calls without retaining anything, in an unoptimized build too.
///
/// Its one hazard is its lifetime: it is valid while its ``_Storage`` lives, which the registry keeps beside it,
/// and a pass, which reads it, keeps in the registry's retired storages (see ``_DeferredRelease``). Within that, its
/// bookkeeping is safe: every slot it reaches by position is checked against the capacity (``slot(at:)``), and
/// what hands out memory (``base``, ``header``, ``ticket``, ``readers``, ``slot(at:)``,
/// ``append(bitsOf:object:owner:key:)``) is unsafe to use.
@safe
@usableFromInline
struct _StorageHandle {
    @usableFromInline
    let header: UnsafeMutablePointer<_StorageHeader>

    /// What passes count themselves into (see ``_Gate``): the registry's, for as long as the storage lives.
    @usableFromInline
    let ticket: UnsafeMutablePointer<_Ticket>

    /// The first slot; slot `position` is ``slot(at:)``.
    @usableFromInline
    let base: _Slot

    /// How the delegates' bits are laid out.
    @usableFromInline
    let layout: _DelegateLayout

    /// Slots the storage has room for.
    @usableFromInline
    let capacity: Int

    @usableFromInline
    init(
        header: UnsafeMutablePointer<_StorageHeader>, ticket: UnsafeMutablePointer<_Ticket>, base: _Slot,
        layout: _DelegateLayout, capacity: Int
    ) {
        unsafe self.header = unsafe header
        unsafe self.ticket = unsafe ticket
        unsafe self.base = unsafe base
        self.layout = layout
        self.capacity = capacity
    }

    /// Slots in use; those at `0..<count` are occupied. Read and written with the lock held; written with release
    /// ordering, for passes, which read it without the lock (see ``_Core/enterPass()``).
    @inlinable
    @inline(always)
    var count: Int {
        get { unsafe header.pointee.count }
        nonmutating set { unsafe _multicast_store_release(countWord, newValue) }
    }

    /// The word of ``count``, as an atomic operation needs it.
    @inlinable
    @inline(always)
    var countWord: UnsafeMutablePointer<Int> {
        unsafe UnsafeMutableRawPointer(header).assumingMemoryBound(to: Int.self)
    }

    /// The ``_Readers`` word: the ticket's.
    @inlinable
    @inline(always)
    var readers: UnsafeMutablePointer<Int> {
        unsafe UnsafeMutableRawPointer(ticket).assumingMemoryBound(to: Int.self)
    }

    /// Whether no pass reads the storage (see ``_Readers/isUnread(_:)``). Call it with the lock held, once no pass can
    /// enter the storage: it is not the current one, or the gate is closed (see ``_Gate``).
    @inlinable
    @inline(always)
    var isUnread: Bool {
        unsafe _Readers.isUnread(readers)
    }

    /// Arranges for the work that waits for the storage's readers (see ``_Readers/collectNowOrByLastReader(_:)``).
    @inlinable
    @inline(always)
    func collectNowOrByLastReader() -> _Readers.WhenToCollect {
        unsafe _Readers.collectNowOrByLastReader(readers)
    }

    /// Clears the readers word's collect bit of a storage that no pass reads (see ``_Readers/forgetCollect(_:)``).
    @inlinable
    @inline(always)
    func forgetCollect() {
        unsafe _Readers.forgetCollect(readers)
    }

    /// The slot at `position`, which must be below the capacity.
    @inlinable
    @inline(always)
    func slot(at position: Int) -> _Slot {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: capacity), "a slot past the storage's capacity")
        return unsafe base.advanced(by: position, stride: layout.stride)
    }

    /// The key of the slot at `position`.
    @inlinable
    @inline(always)
    func key(at position: Int) -> _SlotKey {
        unsafe slot(at: position).key
    }

    /// The address of the owner of the slot at `position`, read without touching the owner.
    @inlinable
    @inline(always)
    func address(at position: Int) -> UInt {
        unsafe slot(at: position).address
    }

    /// Whether a pass may call the delegate at `position` (see ``_Slot/liveness``).
    @inlinable
    @inline(always)
    func liveness(at position: Int) -> _Liveness {
        unsafe slot(at: position).liveness
    }

    /// Whether the slot at `position` holds the registration of the object at `address`, which the caller holds
    /// (see ``_Slot/holdsRegistration(ofOwnerAt:)``).
    @inlinable
    @inline(always)
    func holdsRegistration(at position: Int, ofOwnerAt address: UInt) -> Bool {
        unsafe slot(at: position).holdsRegistration(ofOwnerAt: address)
    }

    /// Whether the owner of the registration at `position`, which ends with it, has died (see
    /// ``_Slot/ownerIsDead``).
    @inlinable
    @inline(always)
    func ownerIsDead(at position: Int) -> Bool {
        unsafe slot(at: position).ownerIsDead
    }

    /// Destroys what the slot at `position` owns (see ``_Slot/release()``).
    @inlinable
    @inline(always)
    func release(at position: Int) -> AnyObject? {
        unsafe slot(at: position).release()
    }

    /// Appends a registration: the bits of a delegate at `value`, whose object is `object`, registered by
    /// `owner`. There must be room.
    @unsafe
    @inlinable
    @inline(always)
    func append(
        bitsOf value: UnsafeRawPointer, object: _Object, owner: _Object, key: _SlotKey
    ) {
        precondition(count < capacity, "appending to a full storage")
        unsafe slot(at: count).occupy(withBitsOf: value, size: layout.size, object: object, owner: owner, key: key)
        count += 1
    }

    /// Drops the last slot, which owns nothing; no pass may be reading the storage.
    @inlinable
    @inline(always)
    func dropLast() {
        count -= 1
    }

    /// The position of the slot of registration `registration`, if this storage holds it. Slots are in
    /// registration order, so this is a binary search.
    func position(ofRegistration registration: Int64) -> Int? {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            let found = key(at: middle).registration
            if found == registration { return middle }
            if found < registration { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Marks the slot of registration `registration` removed, if this storage holds it and it is not already.
    @usableFromInline
    func markRemoved(registration: Int64) {
        if let position = position(ofRegistration: registration) {
            markRemoved(at: position)
        }
    }

    /// Marks the slot at `position` removed, so that no pass calls it, unless it is already.
    @inlinable
    @inline(always)
    func markRemoved(at position: Int) {
        let slot = unsafe slot(at: position)
        let key = unsafe slot.key
        if key.isCallable { unsafe slot.storeKey(key.removed) }
    }
}

// The loops over a storage's slots: here, beside the slot operations they repeat, so that an unoptimized build
// inlines those operations into each loop instead of calling them once per slot (a debug build inlines only
// from the same file: see "Writing the call path" in CONTRIBUTING.md; in another file, they cost a debug build's
// bulk add and remove 7% more). They run only when a storage is searched for ended registrations, grows, is
// compacted or is freed.
extension _Slot {
    /// Marks each slot from `position` up to `count`, counting from `base` in steps of `stride`, whose registration
    /// has ended with its owner (a weak delegate, or an owned delegate's owner, found dead; see ``markEnded()``);
    /// returns the position of the first, or nil if there is none. The search for ended registrations that an add
    /// runs over a full storage before it grows it: a slot's one weak load, and nothing else per slot.
    static func markEnded(base: _Slot, stride: Int, from position: Int, to count: Int) -> Int? {
        var first: Int?
        var slot = unsafe base.advanced(by: position, stride: stride)
        var position = position
        while position < count {
            let key = unsafe slot.key
            if unsafe key.isCallable && key.endsWithOwner && slot.ownerIsDead {
                if !key.isEnded { unsafe slot.markEnded() }
                if first == nil { first = position }
            }
            unsafe slot = slot.advanced(by: 1, stride: stride)
            position += 1
        }
        return first
    }
}

extension _StorageHandle {
    /// Destroys what every slot owns; no pass may be reading the storage.
    @usableFromInline
    func releaseAll() {
        var slot = unsafe base
        var position = 0
        while position < count {
            _ = unsafe slot.release()
            unsafe slot = slot.advanced(by: 1, stride: layout.stride)
            position += 1
        }
        count = 0
    }

    /// Copies or moves the registrations of the slots that are not removed into `target`, which is empty and
    /// has room for them, in order; the removed slots stay here, and are released with the storage. The
    /// objects of live weak delegates go to `deferredReleases` (see ``_Slot/transfer(to:size:sourceIsRead:deferredReleases:)``).
    ///
    /// When no pass reads this storage and no slot of it owns anything afterwards, its count drops to zero,
    /// so that freeing it does not walk slots that own nothing (what a storage that grows leaves).
    func transferRegistrations(to target: _StorageHandle, sourceIsRead: Bool, deferredReleases: inout [AnyObject]) {
        // An index loop over slots advanced in place: see "Writing the call path" in CONTRIBUTING.md.
        var moved = 0
        var owning = 0
        var slot = unsafe base
        var targetSlot = unsafe target.base
        var position = 0
        while position < count {
            let key = unsafe slot.key
            if key.isCallable {
                unsafe slot.transfer(
                    to: targetSlot, size: layout.size, sourceIsRead: sourceIsRead, deferredReleases: &deferredReleases)
                unsafe targetSlot = targetSlot.advanced(by: 1, stride: layout.stride)
                moved += 1
            } else if key.ownsReferences {
                owning += 1
            }
            unsafe slot = slot.advanced(by: 1, stride: layout.stride)
            position += 1
        }
        target.count = moved
        if !sourceIsRead && owning == 0 {
            count = 0  // every registration moved out, and no removed slot owns a reference
        }
    }

    /// Drops the removed slots, moving the others down in order; no pass may be reading the storage. Appends
    /// the objects of the dropped strong delegates, and of the moved weak delegates that need keeping, to
    /// `objects`, to be released after the lock is let go of.
    func compactInPlace(_ objects: inout [AnyObject]) {
        var kept = 0
        var slot = unsafe base
        var keptSlot = unsafe base
        var position = 0
        while position < count {
            if unsafe slot.key.isCallable {
                if kept != position {
                    unsafe slot.transfer(
                        to: keptSlot, size: layout.size, sourceIsRead: false, deferredReleases: &objects)
                }
                unsafe keptSlot = keptSlot.advanced(by: 1, stride: layout.stride)
                kept += 1
            } else if let object = unsafe slot.release() {
                objects.append(object)
            }
            unsafe slot = slot.advanced(by: 1, stride: layout.stride)
            position += 1
        }
        count = kept
    }
}
