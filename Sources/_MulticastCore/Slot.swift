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

    @inlinable
    @inline(always)
    var isStrong: Bool {
        switch self {
        case .weak: false
        case .strong, .owned: true
        }
    }

    @inlinable
    @inline(always)
    var endsWithOwner: Bool {
        switch self {
        case .weak, .owned: true
        case .strong: false
        }
    }
}

/// The one word of a slot that changes while passes read it: the registration number, and the flags below.
///
/// A key is positive exactly while its slot may be called; a removal sets the sign bit. The registration
/// number survives every change, so that slots, in registration order, can be found by binary search. 64 bits
/// on every platform: 58-bit registration numbers last 9 years at a billion adds a second.
@frozen
@usableFromInline
struct _SlotKey: Equatable {
    @usableFromInline
    var rawValue: Int64

    @inlinable
    @inline(always)
    static var strongBit: Int64 { 1 }

    @inlinable
    @inline(always)
    static var releasedBit: Int64 { 2 }

    @inlinable
    @inline(always)
    static var weakOwnerBit: Int64 { 4 }

    @inlinable
    @inline(always)
    static var pinnedOwnerBit: Int64 { 8 }

    /// A pass found the registration ended, for the registry to unregister: set by passes without the lock (see
    /// ``_Slot/markEnded()``), read under it.
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

    /// Whether the slot holds its owner by one unowned count, whose deinit's start ends the registration (see
    /// ``_OwnerPin``): an owned registration, where the runtime allows it.
    @inlinable
    @inline(always)
    var pinsOwner: Bool { rawValue & Self.pinnedOwnerBit != 0 }

    /// Whether the owner is another object than the delegate: an owned registration.
    @inlinable
    @inline(always)
    var isOwned: Bool { isStrong && endsWithOwner }

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

/// The part of a slot that a pass reads first: the same type whatever the delegates' type, so that its fields
/// have the same offsets in any code that reads them, optimized or not.
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

    /// The owner's address, which the index files the slot under: the delegate's object but for an owned
    /// registration. Read without touching the owner, which may be dead; a pinned owner's memory stays there.
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
    /// The registration ended with its owner (a weak delegate, or an owned one's owner), deallocated; its key is `key`.
    case dead(key: _SlotKey)
    /// The delegate is held strongly, with no owner to outlive, and may be called: its storage keeps it alive.
    case strong
    /// The owner, held weakly or pinned, is alive, and the delegate may be called: `keeper`, the owner the slot
    /// loaded, keeps it alive meanwhile (a weak delegate is its own owner); the storage keeps an owned delegate.
    case ownerAlive(keeper: AnyObject)
}

/// One registration: a ``_SlotState`` and, beside it in another array of the storage, the delegate's bits.
///
/// The tricks Multicast plays with a delegate's representation are here, under one invariant, which rests on
/// ``_DelegateKind/withBitsToStore(of:object:_:)``: a multicast of `Any` stores a delegate re-boxed around its object.
///
/// - The first word of a stored delegate is its object's address: a value that may box its object is stored only
///   after it is unboxed. So a delegate is owned by owning its object.
/// - A slot is initialized by ``occupy(withBitsOf:size:object:owner:key:)``. From then on only its key changes, by
///   atomic stores (under the lock, but for a pass's ``markEnded()``), until ``release()`` or
///   ``transfer(to:size:sourceIsRead:deferredReleases:)`` destroys or moves what it owns; each of those happens only
///   while no pass reads the storage.
/// - The delegate's bits hold no reference count. A slot owns its weak reference to its owner (or an unowned count
///   on it) and, when the key says strong, one count on the delegate's object. A weak delegate's bits may be read
///   only while the object that its weak reference loaded is held; a strong or owned one's while the storage is read.
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

    /// Records that a pass found the registration ended with its owner, for the registry to unregister as the pass
    /// ends (``_Registry/reclaimEnded(in:stride:from:to:readers:reporting:_:_:)``): the one change a pass makes,
    /// without the lock. An atomic OR, which keeps any other change of the key; an ended registration stays ended.
    @inlinable
    @inline(always)
    func markEnded() {
        unsafe _multicast_fetch_or_relaxed_64(keyWord, _SlotKey.endedBit)
    }

    /// Changes the key; call it with the lock held. A relaxed store is enough: a pass that reads the key after
    /// `remove` returned (in the order that the lock or any other synchronization gives) sees it, by the coherence
    /// of one memory word; and nothing else that a pass reads changes with it.
    @inlinable
    @inline(always)
    func storeKey(_ key: _SlotKey) {
        unsafe _multicast_store_relaxed_64(keyWord, key.rawValue)
    }

    /// Whether a pass may call the delegate: the one place that decides it, for every pass (lookups under the lock
    /// ask ``holdsRegistration(ofOwnerAt:)``; checks that need no keeper, ``ownerIsDead``). A weak load under the
    /// lock is safe only where the caller holds the object it may load (see ``_Registry/find(_:owned:)``):
    /// releasing the loaded object could otherwise run its deinit under the lock.
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

    /// Whether the slot holds a registration, not unregistered, whose owner is the object at `address`, which the
    /// caller holds: a lookup's test under the lock. Its weak load is safe there: it can load only that object, or
    /// nil (an owner that died at what is now its address, or the caller in its deinit).
    ///
    /// A pinned owner's address is its own while the slot pins it, so the address alone answers, with no load, even
    /// from the owner's deinit, where the registration has ended: a removal then unregisters it, an add checks the
    /// owner first, and a lookup of the delegate asks ``ownerIsDead``.
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

    /// Whether the owner of a registration that ends with it has been deallocated (its weak reference loads nil, or
    /// its pinned deinit has started), with no ``_Liveness`` for a debug build to make and destroy.
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

    /// The owner's address (see ``_SlotState/owner``).
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

    /// Fills the uninitialized slot with a copy of the `size` bytes at `value`, the bits of a delegate whose object
    /// is `object`, registered by `owner` (`object` but for an owned registration), and takes what `key` says the
    /// slot owns: a count on `object`, and a weak reference to `owner` or an unowned count on it.
    @inlinable
    @inline(always)
    func occupy(
        withBitsOf value: UnsafeRawPointer, size: Int, object: _Object, owner: _Object,
        key: _SlotKey
    ) {
        // A bit copy of a non-trivial value, outside `copyMemory(from:byteCount:)`'s rule ("must be initialized
        // to a trivial type"), which holds by `_Slot`'s invariant: the bits carry no count, and nothing destroys them.
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

    /// Whether `object`, which the caller holds, is being deallocated: one load of its counts where owners are
    /// pinned; else a weak reference to it, nil once its deinit has started, which gives a Swift object a side
    /// table for the rest of its life.
    @inlinable
    @inline(always)
    static func isDeallocating(_ object: _Object, ownersArePinned: Bool) -> Bool {
        if ownersArePinned {
            return unsafe _OwnerPin.isDead(object.address)
        }
        return unsafe _WeakReference(object.takeUnretainedValue()).object == nil
    }

    /// Initializes the uninitialized `target` with this slot's registration. If passes may be reading this slot,
    /// it keeps what it owns, and `target` takes counts of its own; otherwise the references move. A state whose
    /// weak reference is nil is bit-copied, as `occupy` fills it; of any other, no raw byte of the weak reference
    /// is read: where the runtime zeroes a reference to an object being deallocated, as the Objective-C runtime
    /// does, they may be changing.
    ///
    /// With the Objective-C runtime, a live owner that the weak reference loads goes to `deferredReleases`, to be
    /// released after unlocking (see ``_Garbage``): copying or moving an Objective-C weak reference may load its
    /// object retained and release it afterwards (objc4's `objc_copyWeak`, and `objc_moveWeak` in older releases),
    /// which would run its deinit here if another thread let go of it meanwhile. Native Swift weak references, the
    /// only kind elsewhere, are copied and moved by their weak count alone.
    @inline(always)
    func transfer(to target: _Slot, size: Int, sourceIsRead: Bool, deferredReleases: inout [AnyObject]) {
        let key = unsafe key
        #if _runtime(_ObjC)
        if key.endsWithOwner, let object = unsafe state.pointee.reference.object {
            deferredReleases.append(object)
        }
        #endif
        // A bit copy outside `copyMemory(from:byteCount:)`'s rule, which holds as in `occupy`: the bits carry no
        // count, and what owns the object, the weak reference or the strong count, is copied or moved below.
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
    /// slot owned, for the caller to release after unlocking (see ``_Garbage``). No pass may be reading the slot.
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
    /// The bits are copied into trivial stack space: a bit copy outside `copyMemory(from:byteCount:)`'s rule
    /// ("must be initialized to a trivial type"), which holds because the delegate is moved out of the space and
    /// back around `body`, which borrows it, never copied or destroyed: no count is taken or dropped. So this
    /// costs no count in an unoptimized build either, where a read through a pointer would copy the delegate, and
    /// a move out of a pointer and back is two generic calls.
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
/// Its one hazard is its lifetime: it is valid while its ``_Storage`` lives (see "Unsafe code" in CONTRIBUTING.md).
/// Within that, its bookkeeping is safe: ``slot(at:)`` checks every position against the capacity, and what hands
/// out memory (a slot, a pointer) is unsafe to use.
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

    /// The header's ``_StorageHeader/count``, read and written with the lock held (passes read it without).
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

    @inlinable
    @inline(always)
    func key(at position: Int) -> _SlotKey {
        unsafe slot(at: position).key
    }

    @inlinable
    @inline(always)
    func address(at position: Int) -> UInt {
        unsafe slot(at: position).address
    }

    @inlinable
    @inline(always)
    func liveness(at position: Int) -> _Liveness {
        unsafe slot(at: position).liveness
    }

    @inlinable
    @inline(always)
    func holdsRegistration(at position: Int, ofOwnerAt address: UInt) -> Bool {
        unsafe slot(at: position).holdsRegistration(ofOwnerAt: address)
    }

    @inlinable
    @inline(always)
    func ownerIsDead(at position: Int) -> Bool {
        unsafe slot(at: position).ownerIsDead
    }

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

// The loops over a storage's slots, beside the slot operations they repeat, which a debug build inlines only from
// the same file (see "Writing the call path" in CONTRIBUTING.md). They run only when a storage is searched for
// ended registrations, grows, is compacted or is freed.
extension _Slot {
    /// Marks each slot from `position` up to `count`, counting from `base` in steps of `stride`, whose registration
    /// has ended with its owner (see ``markEnded()``); returns the position of the first, or nil if there is none.
    /// For ``_Pass/markEndedRegistrations()``.
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

    /// Copies or moves the registrations of the slots that are not removed into `target`, which is empty and has
    /// room for them, in order (see ``_Slot/transfer(to:size:sourceIsRead:deferredReleases:)``); the removed slots
    /// stay, released with the storage. If no pass reads this storage and none of its slots owns anything
    /// afterwards, its count drops to zero, so that freeing it walks no slot (what a storage that grows leaves).
    func transferRegistrations(to target: _StorageHandle, sourceIsRead: Bool, deferredReleases: inout [AnyObject]) {
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
