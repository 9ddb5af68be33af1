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
}

extension _Slot {
    @inlinable
    static func isStrong(_ key: Int) -> Bool { key & 1 != 0 }
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
}

/// The delegates of one multicast, in registration order.
///
/// A pass (a `call` or an iteration) holds a reference to the storage it started with and reads slots
/// `0..<count` of it without the lock. So, under the lock, slots below `count` are only ever written while
/// the storage is uniquely referenced (by the registry); otherwise the registry copies it first. Appending
/// past `count` is always allowed: no pass reads there.
@usableFromInline
final class _Storage<Delegate>: ManagedBuffer<_StorageHeader, _Slot<Delegate>> {
    @usableFromInline
    static func make(minimumCapacity: Int, generation: Int) -> _Storage<Delegate> {
        let buffer = Self.create(minimumCapacity: Swift.max(minimumCapacity, 1)) { _ in
            _StorageHeader(count: 0, vacancies: 0, generation: generation)
        }
        return unsafeDowncast(buffer, to: _Storage<Delegate>.self)
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
    @usableFromInline
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
    @usableFromInline
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
    @usableFromInline
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
