import _MulticastShims

// The members of the call path are `@inline(always)`, here and in `_Pass`, `_Storage`, `_Readers`
// and `_Locked`, up to `MulticastDelegate.call(_:)`: the compiler inlines them into the caller's code even in an
// unoptimized build, where `@inlinable` alone inlines nothing and generic code runs unspecialized, through
// metadata, at every step. So a user's debug build calls a delegate with a few plain instructions and calls
// around one weak load, with no allocation; an optimized build is unchanged. Every other function of the core is
// an ordinary one.

/// A weak reference to any object.
@usableFromInline
struct _WeakReference {
    @usableFromInline
    weak var object: AnyObject?

    @inlinable
    init(_ object: AnyObject?) {
        self.object = object
    }
}

/// What a slot holds, in the one word of it that changes while passes read it: the registration number, and
/// whether the delegate is held strongly, has been removed, and has had its references released.
///
/// A key is positive exactly while its slot may be called; a removal sets the sign bit. The registration
/// number survives every change, so that slots, which are in registration order, can be found by binary
/// search. The key has 64 bits on every platform, 32-bit watchOS included: registration numbers have 61 bits,
/// which a multicast adding a billion delegates a second would use up in 73 years.
@usableFromInline
struct _SlotKey: Equatable {
    @usableFromInline
    var rawValue: Int64

    @inlinable
    @inline(always)
    static var strongBit: Int64 { 1 }

    @inlinable
    static var releasedBit: Int64 { 2 }

    @inlinable
    static var removedBit: Int64 { Int64.min }

    /// The largest registration number.
    @inlinable
    static var lastRegistration: Int64 { Int64.max >> 2 }

    @inlinable
    @inline(always)
    init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    @inlinable
    init(registration: Int64, strong: Bool) {
        precondition(
            registration > 0 && registration <= Self.lastRegistration, "Multicast ran out of registration numbers")
        rawValue = registration << 2 | (strong ? Self.strongBit : 0)
    }

    /// Whether a pass may call the slot's delegate (if a weak one is still alive).
    @inlinable
    @inline(always)
    var isCallable: Bool { rawValue > 0 }

    @inlinable
    @inline(always)
    var isStrong: Bool { rawValue & Self.strongBit != 0 }

    /// Whether the slot still owns its weak reference and, if strong, its delegate.
    @inlinable
    var ownsReferences: Bool { rawValue & Self.releasedBit == 0 }

    @inlinable
    var registration: Int64 { (rawValue & ~Self.removedBit) >> 2 }

    @inlinable
    var removed: _SlotKey { _SlotKey(rawValue: rawValue | Self.removedBit) }

    @inlinable
    var released: _SlotKey { _SlotKey(rawValue: rawValue | Self.releasedBit | Self.removedBit) }
}

/// The part of a slot that does not depend on the delegate's type: its key, and the weak reference that says
/// whether a weak delegate is alive. Being the same type for every `Delegate`, its fields have the same offsets
/// whatever code reads them, optimized or not.
@usableFromInline
struct _SlotState {
    /// The raw value of a ``_SlotKey``, read and written only through ``_Slot``. It is the first field, so
    /// that its address is the state's.
    @usableFromInline
    var key: Int64

    @usableFromInline
    var reference: _WeakReference

    @inlinable
    init(key: Int64, reference: _WeakReference) {
        self.key = key
        self.reference = reference
    }
}

/// Whether a pass may call a slot's delegate, as ``_Slot/liveness`` tells.
@usableFromInline
enum _Liveness {
    /// The slot holds no registration: its delegate was removed, or found dead and reclaimed.
    case unregistered
    /// The slot holds a weak delegate that has been deallocated; its key is `key`.
    case dead(key: _SlotKey)
    /// The delegate is held strongly, and may be called: its storage keeps it alive.
    case strong
    /// The delegate is held weakly, and may be called: `keeper`, the object its weak reference loaded, keeps it
    /// alive meanwhile.
    case weak(keeper: AnyObject)
}

/// One registration: a ``_SlotState`` and, beside it in another array of the storage, the delegate.
///
/// Every trick that Multicast plays with a delegate's representation is here, under one invariant:
///
/// - A slot is initialized by ``occupy(with:object:key:)``. From then on only its key changes, with atomic
///   stores made under the multicast's lock, until ``release()`` or ``transfer(to:sourceIsRead:)`` destroys
///   or moves what it owns; each of those happens only while no pass reads the storage.
/// - A slot owns its weak reference, and owns the delegate only when the key says ``Retention/strong``. For a
///   weak registration, the delegate is a bit copy of the caller's value that holds no reference count: it may
///   be read only while the object that the weak reference loaded is held.
/// - The first word of the delegate is the object's address (`MulticastDelegate` stores a value that boxes its
///   object only after unboxing it), so the address can be read without touching the object, which may be dead.
///
/// That is what makes a weak delegate cost one weak load per call, and no `as? Delegate` cast.
@usableFromInline
struct _Slot<Delegate> {
    @usableFromInline
    let state: UnsafeMutablePointer<_SlotState>

    @usableFromInline
    let delegate: UnsafeMutablePointer<Delegate>

    @inlinable
    @inline(always)
    init(state: UnsafeMutablePointer<_SlotState>, delegate: UnsafeMutablePointer<Delegate>) {
        self.state = state
        self.delegate = delegate
    }

    /// The slot `distance` slots after this one, in the same storage.
    @inlinable
    @inline(always)
    func advanced(by distance: Int) -> _Slot {
        _Slot(state: state + distance, delegate: delegate + distance)
    }

    /// The key word, as an atomic operation needs it.
    @inlinable
    @inline(always)
    var keyWord: UnsafeMutablePointer<Int64> {
        UnsafeMutableRawPointer(state).assumingMemoryBound(to: Int64.self)
    }

    /// The key, read with or without the lock.
    @inlinable
    @inline(always)
    var key: _SlotKey {
        _SlotKey(rawValue: _multicast_load_relaxed_64(keyWord))
    }

    /// Changes the key; call it with the lock held.
    ///
    /// A relaxed store is enough: a pass that reads the key after `remove` returned (in the order that the
    /// lock or any other synchronization gives) sees it, by the coherence of one memory word; and nothing
    /// else that a pass reads changes with it.
    @inlinable
    func storeKey(_ key: _SlotKey) {
        _multicast_store_relaxed_64(keyWord, key.rawValue)
    }

    /// Whether a pass may call the delegate: the one place that decides it, for every pass and for lookups
    /// under the lock.
    ///
    /// A weak load under the lock is safe only where the caller holds the object it may load (see
    /// ``_Registry/find(_:)``): releasing the loaded object could otherwise run its deinit under the lock.
    @inlinable
    @inline(always)
    var liveness: _Liveness {
        let key = key
        guard key.isCallable else { return .unregistered }
        if key.isStrong { return .strong }
        guard let object = state.pointee.reference.object else { return .dead(key: key) }
        return .weak(keeper: consume object)
    }

    /// The address of the slot's object, read without touching the object, which may be dead.
    @inlinable
    var address: UInt {
        UnsafeRawPointer(delegate).load(as: UInt.self)
    }

    /// Fills the uninitialized slot. A weak registration keeps no reference count on `value`.
    @inlinable
    func occupy(with value: Delegate, object: AnyObject, key: _SlotKey) {
        if key.isStrong {
            delegate.initialize(to: value)
        } else {
            // The delegate's bits, with no count: from here on the weak reference decides whether they may be read.
            withUnsafeBytes(of: value) { bytes in
                UnsafeMutableRawPointer(delegate).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
        }
        state.initialize(to: _SlotState(key: key.rawValue, reference: _WeakReference(key.isStrong ? nil : object)))
    }

    /// Initializes the uninitialized `target` with this slot's registration, and appends the object of a live
    /// weak delegate to `keepers`, to be released after the lock is let go of (see ``_Garbage``).
    ///
    /// If passes may be reading this slot, it keeps what it owns, and `target` takes counts of its own (a copy
    /// of the weak reference, and a retain for a strong delegate). Otherwise the references move, and this slot
    /// no longer owns them. No raw byte of the weak reference is read: where the runtime zeroes a reference to
    /// an object being deallocated, as the Objective-C runtime does, they may be changing meanwhile.
    ///
    /// With the Objective-C runtime (Apple platforms), the keepers take the last release of a delegate out of
    /// the lock. An Objective-C weak reference, the kind that holds an `NSObject`, is copied, and in older
    /// releases of objc4 (macOS 10.15's among them) also moved, by loading its object retained and releasing it
    /// once the new reference is made (objc4's `NSObject.mm`: `objc_copyWeak`, and `objc_moveWeak` as a copy
    /// then a destroy); if another thread let go of the object meanwhile, that release would deallocate it here,
    /// under the lock, and its deinit could call back into the multicast. Native Swift weak references, the only
    /// kind elsewhere, are copied and moved by counting the weak reference alone (the Swift runtime's
    /// `swift_weakCopyInit` and `swift_weakTakeInit`), which releases no object; holding keepers there too would
    /// cost every add and remove a fifth more instructions, spent in the rebuilds (valgrind,
    /// `MulticastBenchmarks --add-remove "Multicast (weak)" 20000`: 3,363 against 2,785 per operation).
    @inlinable
    func transfer(to target: _Slot, sourceIsRead: Bool, keepers: inout [AnyObject]) {
        let key = key
        #if _runtime(_ObjC)
        if !key.isStrong, let object = state.pointee.reference.object {
            keepers.append(object)
        }
        #endif
        if sourceIsRead {
            if key.isStrong {
                target.delegate.initialize(to: delegate.pointee)
            } else {
                UnsafeMutableRawPointer(target.delegate).copyMemory(
                    from: delegate, byteCount: MemoryLayout<Delegate>.size)
            }
            target.state.initialize(to: _SlotState(key: key.rawValue, reference: state.pointee.reference))
        } else {
            target.delegate.moveInitialize(from: delegate, count: 1)
            target.state.moveInitialize(from: state, count: 1)
            storeKey(key.released)  // moved out: nothing may destroy it again
        }
    }

    /// Destroys what the slot owns, and marks it released; returns the delegate if the slot owned it, so that
    /// the caller can release it outside the lock (its deinit may call back into the multicast). No pass may
    /// be reading the slot.
    @inlinable
    func release() -> Delegate? {
        let key = key
        guard key.ownsReferences else { return nil }
        _ = withUnsafeMutablePointer(to: &state.pointee.reference) { $0.deinitialize(count: 1) }
        storeKey(key.released)  // from here on only the key is initialized
        guard key.isStrong else { return nil }
        return delegate.move()
    }

    /// Calls `body` with the delegate, without retaining or releasing it. The caller keeps it alive: by
    /// holding the object that its weak load returned, or, for a strong delegate, by reading the storage.
    ///
    /// The delegate's bits are moved out of a stack copy and moved back after `body`, so that this function
    /// never owns a reference; `body` borrows the value, as any closure parameter, and copies it if it keeps it.
    @inlinable
    @inline(always)
    func lend<Result, Failure: Error>(_ body: (Delegate) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUnsafeTemporaryAllocation(of: Delegate.self, capacity: 1) { buffer throws(Failure) in
            let copy = buffer.baseAddress!
            UnsafeMutableRawPointer(copy).copyMemory(from: delegate, byteCount: MemoryLayout<Delegate>.size)
            let lent = copy.move()
            do throws(Failure) {
                let result = try body(lent)
                copy.initialize(to: consume lent)  // give the bits back: the copy is never destroyed
                return result
            } catch {
                copy.initialize(to: consume lent)
                throw error
            }
        }
    }

    /// A strong reference to the delegate, for a caller that keeps it past its turn; the caller keeps it alive
    /// meanwhile, as for ``lend(_:)``.
    @inlinable
    @inline(always)
    var copyOfDelegate: Delegate {
        delegate.pointee
    }

    /// How the multicast holds the delegate: the key's strong bit, set when the slot is filled, never changes.
    @inlinable
    var retention: Retention {
        key.isStrong ? .strong : .weak
    }
}
