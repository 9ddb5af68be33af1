import Testing

@testable import _MulticastCore

/// Holding an owner by its unowned count (`_OwnerPin`): where the runtime allows it, the answers agree with a weak
/// reference's, and a pin keeps the owner's memory, not the owner.
@Suite struct OwnerPinTests {
    final class Owner {
        let onDeinit: (Owner) -> Void
        init(onDeinit: @escaping (Owner) -> Void = { _ in }) { self.onDeinit = onDeinit }
        deinit { onDeinit(self) }
    }

    static func address(of object: AnyObject) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }

    @Test func ownersArePinnedWhereEveryObjectIsNative() {
        #if _runtime(_ObjC)
        #expect(!_OwnerPin.isAvailable)
        #else
        #expect(_OwnerPin.isAvailable)
        #endif
    }

    @Test(.enabled(if: _OwnerPin.isAvailable))
    func aPinTakesOneUnownedCountAndNoStrongOne() {
        let owner = Owner()
        let address = Self.address(of: owner)
        let (strong, unowned) = (_getRetainCount(owner), _getUnownedRetainCount(owner))
        unsafe _OwnerPin.pin(address)
        #expect(_getUnownedRetainCount(owner) == unowned + 1)
        #expect(_getRetainCount(owner) == strong)
        #expect(unsafe !_OwnerPin.isDead(address))
        let kept = unsafe _OwnerPin.retainIfAlive(address)
        #expect(kept === owner)
        unsafe _OwnerPin.unpin(address)
        #expect(_getUnownedRetainCount(owner) == unowned)
        extendLifetime((owner, kept))
    }

    /// Every live object, whatever its address (one whose low byte is zero included, where a runtime's answer read
    /// as a `bool` would be false), is retained and returned.
    @Test(.enabled(if: _OwnerPin.isAvailable))
    func aLiveObjectIsRetainedWhateverItsAddress() {
        let owners = (0..<1000).map { _ in Owner() }
        for owner in owners {
            let kept = unsafe _OwnerPin.retainIfAlive(Self.address(of: owner))
            #expect(kept === owner)
        }
    }

    @Test(.enabled(if: _OwnerPin.isAvailable))
    func aPinnedOwnerThatDiesIsDeadAndRetainsNothing() {
        let seenInDeinit = Box<Bool?>(nil)
        var owner: Owner? = Owner { owner in
            let address = Self.address(of: owner)
            seenInDeinit.value = unsafe _OwnerPin.isDead(address) && _OwnerPin.retainIfAlive(address) == nil
        }
        let address = Self.address(of: owner!)
        unsafe _OwnerPin.pin(address)
        owner = nil
        #expect(seenInDeinit.value == true)
        #expect(unsafe _OwnerPin.isDead(address))
        #expect(unsafe _OwnerPin.retainIfAlive(address) == nil)
        unsafe _OwnerPin.unpin(address)  // frees the memory
    }
}

/// An owner's deinit, where owned registrations pin their owners and where they hold them weakly, as with the
/// Objective-C runtime: an add from it registers nothing, a removal from it releases the delegate at once, and a
/// lookup from it finds no delegate. The two ways take different paths (a pinned owner's registration is found
/// by its address; a weakly held owner is dead to its weak reference), and both run on every platform.
@Suite struct OwnersDeinitTests {
    typealias Owner = OwnerPinTests.Owner

    static func core(ownersArePinned: Bool) throws -> _Core {
        _Core(
            layout: _DelegateLayout(of: AnyObject.self), delegateKind: try _DelegateKind(of: AnyObject.self),
            ownersArePinned: ownersArePinned)
    }

    static func add(_ delegate: AnyObject, ownedBy owner: AnyObject, to core: _Core) -> _Addition {
        withUnsafePointer(to: delegate) { bits in
            core.add(bitsOf: bits, object: _Object(delegate), owner: _Object(owner), holding: .owned)
        }
    }

    /// Where owners are pinned, the add checks the owner before anything changes, and the ended registration
    /// waits to be reclaimed. Where they are held weakly, the add learns it from the slot it appended, after
    /// the search for dead registrations that a full storage makes, which may reclaim the ended one first.
    @Test(arguments: [false, true])
    func anAddFromTheOwnersDeinitRegistersNothing(ownersArePinned: Bool) throws {
        try #require(!ownersArePinned || _OwnerPin.isAvailable)
        let core = try Self.core(ownersArePinned: ownersArePinned)
        let answer = Box<_Addition?>(nil)
        let firstIsHeld = Box<Bool?>(nil)
        weak var first: AnyObject?
        weak var late: AnyObject?
        do {
            let owner = Owner { owner in
                let made = Owner()
                late = made
                answer.value = Self.add(made, ownedBy: owner, to: core)
                firstIsHeld.value = first != nil
            }
            let made = Owner()
            first = made
            #expect(Self.add(made, ownedBy: owner, to: core) == .added)
            extendLifetime(owner)
        }
        #expect(answer.value == .ownerDeallocating)
        if ownersArePinned { #expect(firstIsHeld.value == true) }
        #expect(late == nil)  // not kept: nothing was registered
    }

    @Test(arguments: [false, true])
    func aRemovalFromTheOwnersDeinitReleasesTheDelegate(ownersArePinned: Bool) throws {
        try #require(!ownersArePinned || _OwnerPin.isAvailable)
        let core = try Self.core(ownersArePinned: ownersArePinned)
        let removed = Box<Bool?>(nil)
        weak var delegate: AnyObject?
        do {
            let owner = Owner { removed.value = core.remove(ownedBy: $0) }
            let made = Owner()
            delegate = made
            #expect(Self.add(made, ownedBy: owner, to: core) == .added)
            extendLifetime(owner)
        }
        #expect(removed.value == true)
        #expect(delegate == nil)
    }

    @Test(arguments: [false, true])
    func aLookupFromTheOwnersDeinitFindsNoDelegate(ownersArePinned: Bool) throws {
        try #require(!ownersArePinned || _OwnerPin.isAvailable)
        let core = try Self.core(ownersArePinned: ownersArePinned)
        let found = Box<Bool?>(nil)
        do {
            let owner = Owner { found.value = core.delegate(ownedBy: $0, as: AnyObject.self) != nil }
            let made = Owner()
            #expect(Self.add(made, ownedBy: owner, to: core) == .added)
            #expect(core.delegate(ownedBy: owner, as: AnyObject.self) === made)
            extendLifetime((owner, made))
        }
        #expect(found.value == false)
    }
}
