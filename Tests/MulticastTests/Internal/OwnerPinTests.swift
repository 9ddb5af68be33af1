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
