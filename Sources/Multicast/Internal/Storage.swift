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

/// One registration: a delegate, its registration key, and (for weak retention) the weak reference that says
/// whether it is still alive.
///
/// A slot is never copied or destroyed as a whole: `delegate` is only *owned* when the key says
/// ``Retention/strong``. For a weak registration it is a bit copy of the caller's value that holds no reference
/// count, so it may be read only after `reference.object` has loaded non-nil (which keeps the object alive).
/// That is what makes a weak delegate cost one weak load per call, and no `as? Delegate` cast.
@usableFromInline
struct _Slot<Delegate> {
    @usableFromInline
    var delegate: Delegate

    /// `0` for a vacant slot (its other fields are uninitialized); otherwise `registration << 1 | strong`.
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
    @inlinable
    static func isStrong(_ key: Int) -> Bool { key & 1 != 0 }

    /// The address of the object in the occupied `slot`, read without touching the object, which may be dead.
    ///
    /// A delegate is a class instance, and every representation of a value that holds one (a class type, a
    /// class-bound existential, the inline buffer of any other existential) stores the reference first.
    @inlinable
    static func address(in slot: UnsafeMutablePointer<_Slot<Delegate>>) -> UInt {
        UnsafeRawPointer(slot.pointer(to: \.delegate)!).load(as: UInt.self)
    }

    /// Calls `body` with the delegate in `slot` without retaining or releasing it, which would cost two
    /// atomic operations per delegate and call: the caller keeps the delegate alive for the call, with the
    /// storage that owns a strong delegate or the object that the weak load of a weak one returned.
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

@usableFromInline
struct _StorageHeader {
    /// Slots in use, vacant ones included; slots `0..<count` are in registration order.
    @usableFromInline
    var count: Int

    /// Vacant slots among `0..<count`.
    @usableFromInline
    var vacancies: Int

    /// Changes whenever slots move, so that a scan made outside the lock can tell if its indices still hold.
    @usableFromInline
    var generation: Int

    @inlinable
    init(count: Int, vacancies: Int, generation: Int) {
        self.count = count
        self.vacancies = vacancies
        self.generation = generation
    }
}

/// The delegates of one multicast, in registration order.
///
/// A pass (a `call` or an iteration) holds a reference to the storage it started with and reads slots
/// `0..<count` of it without the lock. So, under the lock, slots below `count` are only ever written while
/// the storage is uniquely referenced (by the registry); otherwise the registry copies it first. Appending
/// past `count` is always allowed: no pass reads there.
@usableFromInline
final class _Storage<Delegate>: ManagedBuffer<_StorageHeader, _Slot<Delegate>> {
    @inlinable
    static func make(minimumCapacity: Int, generation: Int) -> _Storage<Delegate> {
        let buffer = Self.create(minimumCapacity: Swift.max(minimumCapacity, 1)) { _ in
            _StorageHeader(count: 0, vacancies: 0, generation: generation)
        }
        return unsafeDowncast(buffer, to: _Storage<Delegate>.self)
    }

    /// The header, read and written through a pointer: `header`, a stored class property, would cost a
    /// dynamic exclusivity check on every access.
    @inlinable
    var head: UnsafeMutablePointer<_StorageHeader> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    /// The first slot; valid for as long as the storage is alive.
    @inlinable
    var slots: UnsafeMutablePointer<_Slot<Delegate>> {
        withUnsafeMutablePointerToElements { $0 }
    }

    deinit {
        withUnsafeMutablePointers { header, slots in
            for index in 0..<header.pointee.count {
                _Storage.vacate(slots + index)
            }
        }
    }
}

extension _Storage {
    /// Fills the uninitialized `slot`. A weak registration keeps no reference count on `delegate`.
    @inlinable
    static func occupy(
        _ slot: UnsafeMutablePointer<_Slot<Delegate>>, with delegate: Delegate, object: AnyObject, key: Int
    ) {
        let strong = _Slot<Delegate>.isStrong(key)
        slot.initialize(to: _Slot(delegate: delegate, key: key, reference: _WeakReference(strong ? nil : object)))
        if !strong {
            // Give back the count that copying `delegate` into the slot took: from here on the slot's
            // `reference` decides whether the bits in `delegate` may be read.
            Unmanaged.passUnretained(object).release()
        }
    }

    /// Destroys what `slot` owns and marks it vacant; returns the delegate if the slot owned it, so that
    /// the caller can release it outside the lock (its deinit may call back into the multicast).
    @inlinable
    @discardableResult
    static func vacate(_ slot: UnsafeMutablePointer<_Slot<Delegate>>) -> Delegate? {
        let key = slot.pointee.key
        guard key != 0 else { return nil }
        _ = withUnsafeMutablePointer(to: &slot.pointee.reference) { $0.deinitialize(count: 1) }
        slot.pointee.key = 0
        guard _Slot<Delegate>.isStrong(key) else { return nil }
        return withUnsafeMutablePointer(to: &slot.pointee.delegate) { $0.move() }
    }

    /// Initializes `target` with a copy of the occupied `source`, which stays as it is.
    @inlinable
    static func copy(_ source: UnsafeMutablePointer<_Slot<Delegate>>, to target: UnsafeMutablePointer<_Slot<Delegate>>)
    {
        let key = source.pointee.key
        if _Slot<Delegate>.isStrong(key) {
            target.initialize(to: _Slot(delegate: source.pointee.delegate, key: key, reference: _WeakReference(nil)))
        } else {
            // Copy the unowned bits of `delegate` as bits: the object may be dead, so no count may be taken.
            UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: MemoryLayout<_Slot<Delegate>>.size)
            _ = withUnsafeMutablePointer(to: &target.pointee.reference) {
                UnsafeMutableRawPointer($0).initializeMemory(as: _WeakReference.self, to: source.pointee.reference)
            }
        }
    }
}
