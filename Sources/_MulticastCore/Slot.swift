import _MulticastShims

// The members of the call path are `@inline(always)`: see "Writing the call path" in CONTRIBUTING.md.

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

    /// The largest registration number a key can hold.
    @inlinable
    static var maximumRegistration: Int64 { Int64.max >> 2 }

    @inlinable
    @inline(always)
    init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    @inlinable
    @inline(always)
    init(registration: Int64, strong: Bool) {
        precondition(
            registration > 0 && registration <= Self.maximumRegistration, "Multicast ran out of registration numbers")
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
    @inline(always)
    var ownsReferences: Bool { rawValue & Self.releasedBit == 0 }

    @inlinable
    @inline(always)
    var registration: Int64 { (rawValue & ~Self.removedBit) >> 2 }

    @inlinable
    @inline(always)
    var removed: _SlotKey { _SlotKey(rawValue: rawValue | Self.removedBit) }

    @inlinable
    @inline(always)
    var released: _SlotKey { _SlotKey(rawValue: rawValue | Self.releasedBit | Self.removedBit) }
}

/// The part of a slot that a pass reads first: its key, and the weak reference that says whether a weak
/// delegate is alive. It is the same type whatever the delegates' type, so its fields have the same offsets
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
    @inline(always)
    init(key: _SlotKey, reference: _WeakReference) {
        self.key = key.rawValue
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

/// What the core knows of the delegates' type: how many bytes a value has, and how values are laid out in an
/// array. Everything else it does with a delegate, it does with the object that the delegate is.
@usableFromInline
package struct _DelegateLayout: Sendable {
    @usableFromInline
    let size: Int

    @usableFromInline
    let stride: Int

    let alignment: Int

    package init<Delegate>(of type: Delegate.Type) {
        size = MemoryLayout<Delegate>.size
        stride = MemoryLayout<Delegate>.stride
        alignment = MemoryLayout<Delegate>.alignment
    }
}

/// One registration: a ``_SlotState`` and, beside it in another array of the storage, the delegate's bits.
///
/// Every trick that Multicast plays with a delegate's representation is here, under one invariant:
///
/// - The first word of a stored delegate is its object's address: `MulticastDelegate.add` stores a value that
///   boxes its object only after unboxing it. So the address can be read without touching the object, which
///   may be dead, and a delegate is owned by owning its object.
/// - A slot is initialized by ``occupy(withBitsOf:size:object:key:)``. From then on only its key changes, with
///   atomic stores made under the multicast's lock, until ``release()`` or
///   ``transfer(to:size:sourceIsRead:keepers:)`` destroys or moves what it owns; each of those happens only
///   while no pass reads the storage.
/// - The delegate's bits hold no reference count. A slot owns its weak reference and, when the key says
///   strong, one count on the delegate's object. A weak delegate's bits may be read only while
///   the object that its weak reference loaded is held; a strong one's while the storage is read.
///
/// That is what makes a weak delegate cost one weak load per call, and no `as? Delegate` cast, and what lets
/// the rest of the core work without knowing the delegates' type.
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
        self.state = state
        self.delegate = delegate
    }

    /// The slot `distance` slots after this one, in a storage whose delegates are `stride` bytes apart.
    @inlinable
    @inline(always)
    func advanced(by distance: Int, stride: Int) -> _Slot {
        _Slot(state: state + distance, delegate: delegate + distance &* stride)
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
    @inline(always)
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
    @inline(always)
    var address: UInt {
        UnsafeRawPointer(delegate).load(as: UInt.self)
    }

    /// Fills the uninitialized slot with a copy of `size` bytes at `value`, the bits of a delegate whose object
    /// is `object`; a strong registration takes a count on `object`.
    @inlinable
    @inline(always)
    func occupy(withBitsOf value: UnsafeRawPointer, size: Int, object: Unmanaged<AnyObject>, key: _SlotKey) {
        delegate.copyMemory(from: value, byteCount: size)
        if key.isStrong {
            _ = object.retain()  // the slot's count, which `release()` gives back
            state.initialize(to: _SlotState(key: key, reference: _WeakReference(nil)))
        } else {
            state.initialize(to: _SlotState(key: key, reference: _WeakReference(object.takeUnretainedValue())))
        }
    }

    /// Whether `object` is being deallocated (its deinit has started): a weak reference to it is nil from the
    /// start, though the caller holds it.
    @inlinable
    @inline(always)
    static func isDeallocating(_ object: Unmanaged<AnyObject>) -> Bool {
        _WeakReference(object.takeUnretainedValue()).object == nil
    }

    /// Initializes the uninitialized `target` with this slot's registration, and appends the object of a live
    /// weak delegate to `keepers`, to be released after the lock is let go of (see ``_Garbage``).
    ///
    /// If passes may be reading this slot, it keeps what it owns, and `target` takes counts of its own (a copy
    /// of the weak reference, and a count on a strong delegate's object). Otherwise the references move, and
    /// this slot no longer owns them. No raw byte of the weak reference is read: where the runtime zeroes a
    /// reference to an object being deallocated, as the Objective-C runtime does, they may be changing.
    ///
    /// With the Objective-C runtime (Apple platforms), the keepers take the last release of a delegate out of
    /// the lock: copying or moving an Objective-C weak reference may load its object retained and release it
    /// afterwards (objc4's `objc_copyWeak`, and `objc_moveWeak` in older releases), which, if another thread let
    /// go of the object meanwhile, would run its deinit here. Native Swift weak references, the only kind
    /// elsewhere, are copied and moved by counting the weak reference alone, and need no keepers.
    func transfer(to target: _Slot, size: Int, sourceIsRead: Bool, keepers: inout [AnyObject]) {
        let key = key
        #if _runtime(_ObjC)
        if !key.isStrong, let object = state.pointee.reference.object {
            keepers.append(object)
        }
        #endif
        target.delegate.copyMemory(from: delegate, byteCount: size)
        if sourceIsRead {
            if key.isStrong {
                _ = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).retain()
            }
            target.state.initialize(to: _SlotState(key: key, reference: state.pointee.reference))
        } else {
            target.state.moveInitialize(from: state, count: 1)
            storeKey(key.released)  // moved out: nothing may destroy it again
        }
    }

    /// Destroys what the slot owns, and marks it released; returns a strong delegate's object, whose count the
    /// slot owned, so that the caller can release it outside the lock (its deinit may call back into the
    /// multicast). No pass may be reading the slot.
    @inlinable
    @inline(always)
    func release() -> AnyObject? {
        let key = key
        guard key.ownsReferences else { return nil }
        state.deinitialize(count: 1)
        storeKey(key.released)  // from here on only the key is initialized
        guard key.isStrong else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeRetainedValue()
    }

    /// Calls `body` with the delegate, without retaining or releasing it. The caller keeps it alive: by
    /// holding the object that its weak load returned, or, for a strong delegate, by reading the storage.
    ///
    /// The delegate's bits are copied into a stack value that is moved out and back around `body`, so that this
    /// function never owns a reference; `body` borrows the value, as any closure parameter, and copies it if
    /// it keeps it.
    @inlinable
    @inline(always)
    package func lend<Delegate, Result, Failure: Error>(
        as type: Delegate.Type, _ body: (Delegate) throws(Failure) -> Result
    ) throws(Failure) -> Result {
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
    /// meanwhile, as for ``lend(as:_:)``.
    @inlinable
    @inline(always)
    package func copyOfDelegate<Delegate>(as type: Delegate.Type) -> Delegate {
        UnsafeRawPointer(delegate).load(as: Delegate.self)
    }

    /// How the multicast holds the delegate: the key's strong bit, set when the slot is filled, never changes.
    package var isStrong: Bool {
        key.isStrong
    }
}

extension _Slot {
    /// The object that `delegate` is, unretained, or nil if it is not a class instance. `knownToBeOne` says that
    /// every value of `Delegate` is a class reference (see ``valuesAreReferences(_:)``): then the object is read
    /// from the value's first word, with no dynamic cast.
    ///
    /// A class instance is stored first in every representation of a delegate type that can hold one (a class,
    /// a class-bound existential, the inline buffer of any other existential). The exceptions: `any Error`,
    /// which a multicast refuses, and an `Any` that holds another existential, which keeps it in a box (a value
    /// wrapped twice by generic code); such a value is unwrapped by a cast, and a multicast of `Any` stores the
    /// object itself (see ``MulticastDelegate/add(_:retention:file:line:)``). Either way `delegate` keeps the object alive.
    @inlinable
    package static func object<Delegate>(of delegate: Delegate, knownToBeOne: Bool) -> Unmanaged<AnyObject>? {
        if !knownToBeOne {
            guard type(of: delegate as Any) is AnyObject.Type else { return nil }
            if Delegate.self == Any.self {
                return Unmanaged.passUnretained(delegate as AnyObject)
            }
        }
        return withUnsafeBytes(of: delegate) { $0.load(as: Unmanaged<AnyObject>.self) }
    }

    /// Whether every value of `type` is a class reference, held in the value's first word: a class, or a
    /// class-bound protocol or composition (`any P` where `P: AnyObject`, `AnyObject`, `C & P`).
    ///
    /// It reads the Swift runtime's type metadata, whose layout is part of its stable ABI: the metadata kind,
    /// and for an existential, the flags after the kind word, whose top bit is clear for a class-bound one
    /// (`ExistentialTypeFlags` in the runtime's `MetadataValues.h`).
    package static func valuesAreReferences<Delegate>(_ type: Delegate.Type) -> Bool {
        switch _MetadataKind(type) {
        case .class, .objCClassWrapper:
            return true
        case .existential:
            let flags = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
                .load(fromByteOffset: MemoryLayout<Int>.size, as: UInt32.self)
            return flags & 0x8000_0000 == 0
        default:
            return false
        }
    }
}
