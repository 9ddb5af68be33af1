import _MulticastShims

/// How an owned registration holds its owner where the Swift runtime allows it: by one count of the owner's
/// *unowned* references, as a Swift `unowned` variable does, instead of a weak reference.
///
/// A weak reference to a native Swift object gives it a side table, an allocation that every later retain and
/// release of the object goes through, for the rest of its life; an unowned count is one atomic add, and keeps
/// the object's memory, not the object, until it is given back. So, while the slot holds its count:
/// - the owner's address is its own: no other object can be allocated there, so a slot found by address is the
///   owner's, alive or dead;
/// - whether the owner is dead is one load of its counts (`swift_isDeallocating`: its deinit has started), and a
///   pass keeps a live owner alive through its delegate's turn by the strong count that `swift_tryRetain` takes
///   unless the deinit has started: what a weak load does, without the side table.
///
/// An owner that dies keeps its memory, less what its deinit released, until the multicast reclaims its
/// registration: the next call, or the search for dead registrations that an add makes before the storage grows.
///
/// It rests on the Swift runtime's entry points for native objects, so it is used only where every object is one
/// (no Objective-C runtime), and only once ``isAvailable`` has seen them agree with a weak reference, the public
/// fact: elsewhere an owned registration holds its owner weakly, as a weak delegate is held.
@usableFromInline
enum _OwnerPin {
    /// Whether owners are held by their unowned count: decided once, by ``runtimeAgreesWithWeakReferences()``.
    @usableFromInline
    static let isAvailable = runtimeAgreesWithWeakReferences()

    /// Takes one unowned count on the object at `address`, which the caller keeps in memory.
    @unsafe
    @inlinable
    @inline(always)
    static func pin(_ address: UInt) {
        unsafe _multicast_unowned_retain(address)
    }

    /// Gives back the unowned count that ``pin(_:)`` took; frees the memory of an object that died meanwhile if no
    /// other count keeps it.
    @unsafe
    @inlinable
    @inline(always)
    static func unpin(_ address: UInt) {
        unsafe _multicast_unowned_release(address)
    }

    /// Whether the deinit of the object at `address`, which a pin or a strong reference keeps in memory, has
    /// started.
    @unsafe
    @inlinable
    @inline(always)
    static func isDead(_ address: UInt) -> Bool {
        unsafe _multicast_is_deallocating(address)
    }

    /// The object at `address`, which a pin keeps in memory, retained; nil if its deinit has started.
    @unsafe
    @inlinable
    @inline(always)
    static func retainIfAlive(_ address: UInt) -> AnyObject? {
        guard unsafe tryRetain(address) else { return nil }
        return unsafe takeRetained(address)
    }

    /// Takes a strong count on the object at `address`, which a pin keeps in memory, unless its deinit has started;
    /// returns whether it did.
    @unsafe
    @inlinable
    @inline(always)
    static func tryRetain(_ address: UInt) -> Bool {
        // The runtime returns the object it retained: any other answer is no retain this code can use.
        unsafe _multicast_try_retain(address)
    }

    /// The object at `address`, owning the strong count that ``tryRetain(_:)`` took.
    @unsafe
    @inlinable
    @inline(always)
    static func takeRetained(_ address: UInt) -> AnyObject {
        unsafe unsafeBitCast(address, to: Unmanaged<AnyObject>.self).takeRetainedValue()
    }

    /// Whether the runtime's answers agree with a weak reference's for an object that is alive, one in its deinit
    /// and one that died while pinned; false with the Objective-C runtime, whose objects keep their counts their own
    /// way. The probe is made on the heap (see ``_PinProbe/make(onDeinit:)``), as every owner a pin can be given is.
    static func runtimeAgreesWithWeakReferences() -> Bool {
        #if _runtime(_ObjC)
        return false
        #else
        var seenInDeinit: (dead: Bool, weakIsNil: Bool)?
        var address: UInt = 0
        var weakProbe = _WeakReference(nil)
        do {
            let probe = _PinProbe.make { probe in
                let address = Self.address(of: probe)
                seenInDeinit = unsafe (
                    isDead(address) && retainIfAlive(address) == nil, _WeakReference(probe).object == nil
                )
            }
            address = Self.address(of: probe)
            weakProbe.object = probe
            guard unsafe !isDead(address) && retainIfAlive(address) === probe && weakProbe.object != nil else {
                return false
            }
            unsafe pin(address)
            extendLifetime(probe)
        }
        let agrees =
            unsafe seenInDeinit.map { $0.dead && $0.weakIsNil } == true && weakProbe.object == nil && isDead(address)
        unsafe unpin(address)
        return agrees
        #endif
    }

    /// The address of `object`.
    static func address(of object: AnyObject) -> UInt {
        unsafe UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }
}

/// An object that tells its deinit to `onDeinit`, for ``_OwnerPin/runtimeAgreesWithWeakReferences()``.
private final class _PinProbe {
    let onDeinit: (_PinProbe) -> Void

    init(onDeinit: @escaping (_PinProbe) -> Void) {
        self.onDeinit = onDeinit
    }

    /// A probe on the heap: made out of line, so that the optimizer cannot put it on the caller's stack, where a
    /// pin's last release would free memory that the heap does not own.
    @inline(never)
    static func make(onDeinit: @escaping (_PinProbe) -> Void) -> _PinProbe {
        _PinProbe(onDeinit: onDeinit)
    }

    deinit {
        onDeinit(self)
    }
}
