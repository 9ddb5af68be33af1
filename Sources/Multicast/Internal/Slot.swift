import _MulticastShims

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
/// search.
@usableFromInline
struct _SlotKey: Equatable {
    @usableFromInline
    var rawValue: Int

    @usableFromInline
    static var strongBit: Int { 1 }

    @usableFromInline
    static var releasedBit: Int { 2 }

    @usableFromInline
    static var removedBit: Int { Int.min }

    @inlinable
    init(rawValue: Int) {
        self.rawValue = rawValue
    }

    @inlinable
    init(registration: Int, strong: Bool) {
        precondition(registration > 0 && registration < 1 << 60, "Multicast ran out of registration numbers")
        rawValue = registration << 2 | (strong ? Self.strongBit : 0)
    }

    /// Whether a pass may call the slot's delegate (if a weak one is still alive).
    @inlinable
    var isCallable: Bool { rawValue > 0 }

    @inlinable
    var isStrong: Bool { rawValue & Self.strongBit != 0 }

    /// Whether the slot still owns its weak reference and, if strong, its delegate.
    @inlinable
    var ownsReferences: Bool { rawValue & Self.releasedBit == 0 }

    @inlinable
    var registration: Int { (rawValue & ~Self.removedBit) >> 2 }

    @inlinable
    var removed: _SlotKey { _SlotKey(rawValue: rawValue | Self.removedBit) }

    @inlinable
    var released: _SlotKey { _SlotKey(rawValue: rawValue | Self.releasedBit | Self.removedBit) }
}

/// One registration: a delegate, its key, and (for weak retention) the weak reference that says whether it is
/// still alive.
///
/// Every trick that Multicast plays with a delegate's representation is here, under one invariant:
///
/// - A slot is initialized by ``occupy(_:with:object:key:)``. From then on only its key changes, with atomic
///   stores made under the multicast's lock, until ``release(_:)`` or the storage's deinit destroys what it
///   owns, or its registration moves to another slot; each of those happens only while no pass reads the
///   storage.
/// - A slot owns its `reference`, and owns `delegate` only when the key says ``Retention/strong``. For a weak
///   registration, `delegate` is a bit copy of the caller's value that holds no reference count: it may be
///   read only after `reference.object` has loaded non-nil, which keeps the object alive.
/// - The first word of `delegate` is the object's address (`MulticastDelegate` refuses `any Error`, the one
///   type whose values may box the object), so the address can be read without touching the object, which may
///   be dead.
///
/// That is what makes a weak delegate cost one weak load per call, and no `as? Delegate` cast.
@usableFromInline
struct _Slot<Delegate> {
    @usableFromInline
    var delegate: Delegate

    /// The raw value of a ``_SlotKey``; read and written only through ``loadKey(_:)`` and ``storeKey(_:_:)``.
    @usableFromInline
    var key: Int

    @usableFromInline
    var reference: _WeakReference

    @inlinable
    init(delegate: Delegate, key: Int, reference: _WeakReference) {
        self.delegate = delegate
        self.key = key
        self.reference = reference
    }
}

extension _Slot {
    /// The address of the object in the occupied `slot`, read without touching the object, which may be dead.
    @inlinable
    static func address(in slot: UnsafeMutablePointer<_Slot<Delegate>>) -> UInt {
        UnsafeRawPointer(slot.pointer(to: \.delegate)!).load(as: UInt.self)
    }

    /// The key of `slot`, read with or without the lock.
    @inlinable
    @inline(__always)
    static func loadKey(_ slot: UnsafeMutablePointer<_Slot<Delegate>>) -> _SlotKey {
        _SlotKey(rawValue: _multicast_load_relaxed(slot.pointer(to: \.key)!))
    }

    /// Changes the key of `slot`; call it with the lock held.
    ///
    /// A relaxed store is enough: a pass that reads the key after `remove` returned (in the order that the
    /// lock or any other synchronization gives) sees it, by the coherence of one memory word; and nothing
    /// else that a pass reads changes with it.
    @inlinable
    static func storeKey(_ slot: UnsafeMutablePointer<_Slot<Delegate>>, _ key: _SlotKey) {
        _multicast_store_relaxed(slot.pointer(to: \.key)!, key.rawValue)
    }

    /// Fills the uninitialized `slot`. A weak registration keeps no reference count on `delegate`.
    @inlinable
    static func occupy(
        _ slot: UnsafeMutablePointer<_Slot<Delegate>>, with delegate: Delegate, object: AnyObject, key: _SlotKey
    ) {
        if key.isStrong {
            slot.initialize(to: _Slot(delegate: delegate, key: key.rawValue, reference: _WeakReference(nil)))
            return
        }
        // The delegate's bits, with no count: from here on `reference` decides whether they may be read.
        withUnsafeBytes(of: delegate) { bytes in
            UnsafeMutableRawPointer(slot.pointer(to: \.delegate)!).copyMemory(
                from: bytes.baseAddress!, byteCount: bytes.count)
        }
        slot.pointer(to: \.key)!.initialize(to: key.rawValue)
        slot.pointer(to: \.reference)!.initialize(to: _WeakReference(object))
    }

    /// Initializes the uninitialized `target` with the registration in `source`.
    ///
    /// If passes may be reading `source`, it keeps what it owns, and `target` takes counts of its own (a weak
    /// copy, and a retain for a strong delegate). Otherwise the references move, and `source` no longer owns
    /// them.
    @inlinable
    static func transfer(
        from source: UnsafeMutablePointer<_Slot<Delegate>>,
        to target: UnsafeMutablePointer<_Slot<Delegate>>,
        sourceIsRead: Bool
    ) {
        let key = loadKey(source)
        if sourceIsRead {
            // The bits of a weak delegate are copied as bits: its object may be dead, so no count may be taken.
            UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: MemoryLayout<_Slot<Delegate>>.size)
            if key.isStrong {
                target.pointer(to: \.delegate)!.initialize(to: source.pointee.delegate)
            }
            target.pointer(to: \.reference)!.initialize(to: source.pointee.reference)
        } else {
            target.moveInitialize(from: source, count: 1)
            storeKey(source, key.released)  // moved out: the storage's deinit must not destroy it again
        }
    }

    /// Destroys what the occupied `slot` owns, and marks it released; returns the delegate if the slot owned
    /// it, so that the caller can release it outside the lock (its deinit may call back into the multicast).
    /// No pass may be reading the slot.
    @inlinable
    static func release(_ slot: UnsafeMutablePointer<_Slot<Delegate>>) -> Delegate? {
        let key = loadKey(slot)
        guard key.ownsReferences else { return nil }
        storeKey(slot, key.released)
        slot.pointer(to: \.reference)!.deinitialize(count: 1)
        guard key.isStrong else { return nil }
        return slot.pointer(to: \.delegate)!.move()
    }

    /// Lends the delegate in `slot` to `body` if a pass may call it: its key is callable and, if it is held
    /// weakly, it is alive. Returns what `body` returned, or nil if the slot was skipped; counts a dead weak
    /// delegate in `dead`. This is the one place that decides whether a delegate is called.
    ///
    /// The delegate is lent without a retain or release, which would cost two atomic operations per delegate
    /// and call: the storage keeps a strong delegate alive, and the object that the weak load returned keeps a
    /// weak one alive.
    @inlinable
    @inline(__always)
    static func lend<Result>(
        _ slot: UnsafeMutablePointer<_Slot<Delegate>>,
        dead: inout Int,
        _ body: (Delegate) throws -> Result
    ) rethrows -> Result? {
        let key = loadKey(slot)
        guard key.isCallable else { return nil }
        if key.isStrong {
            return try withDelegate(in: slot, body)
        }
        guard let object = slot.pointee.reference.object else {
            dead += 1
            return nil
        }
        defer { extendLifetime(object) }
        return try withDelegate(in: slot, body)
    }

    /// Calls `body` with the delegate in `slot` without retaining or releasing it.
    ///
    /// The delegate's bits are moved out of a stack copy and moved back after `body`, so that this function
    /// never owns a reference; `body` borrows the value, as any closure parameter, and copies it if it keeps it.
    @inlinable
    @inline(__always)
    static func withDelegate<Result>(
        in slot: UnsafeMutablePointer<_Slot<Delegate>>,
        _ body: (Delegate) throws -> Result
    ) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: Delegate.self, capacity: 1) { buffer in
            let copy = buffer.baseAddress!
            UnsafeMutableRawPointer(copy).copyMemory(
                from: slot.pointer(to: \.delegate)!,
                byteCount: MemoryLayout<Delegate>.size
            )
            let delegate = copy.move()
            defer { copy.initialize(to: delegate) }  // give the bits back; the copy is never destroyed
            return try body(delegate)
        }
    }
}
