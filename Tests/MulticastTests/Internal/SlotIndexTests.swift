import Testing

@testable import Multicast
@testable import _MulticastCore

/// The index from object addresses to slot positions: an open-addressing table with linear probing, whose
/// keys are read from the slots (here, from `addresses`).
@Suite struct SlotIndexTests {
    /// The address of the object of the slot at each position.
    var addresses: [UInt] = []
    var index = _SlotIndex(capacity: 6)  // 8 buckets

    /// Registers a slot for `address` at the next position.
    mutating func insert(_ address: UInt) {
        addresses.append(address)
        index.insert(addresses.count - 1, address: address)
    }

    /// The bucket that lists `position`, found as lookups find it: along the probe run from its home.
    func find(_ position: Int) -> Int? {
        var bucket = index.home(of: addresses[position])
        while let listed = index.position(inBucket: bucket) {
            if listed == position { return bucket }
            bucket = index.bucket(after: bucket)
        }
        return nil
    }

    mutating func remove(_ position: Int) {
        let addresses = addresses
        index.remove(bucket: find(position)!) { addresses[$0] }
    }

    /// `count` addresses, aligned as objects are, whose home is the same bucket.
    func addressesSharingAHome(_ count: Int, home: Int? = nil) -> [UInt] {
        var found: [UInt] = []
        var address: UInt = 0x1000
        let wanted = home ?? index.home(of: address)
        while found.count < count {
            if index.home(of: address) == wanted { found.append(address) }
            address += 16
        }
        return found
    }

    @Test func everyInsertedPositionIsFound() {
        var index = SlotIndexTests()  // buckets of its own: an index is a handle to memory
        for address in stride(from: UInt(0x1000), to: 0x1060, by: 16) { index.insert(address) }
        #expect(index.index.count == 6)
        for position in 0..<6 { #expect(index.find(position) != nil) }
        #expect(!index.index.hasRoom)  // a seventh would pass three quarters of 8 buckets
    }

    @Test func positionsThatShareAHomeAreFoundAlongTheProbeRun() {
        var index = SlotIndexTests()  // buckets of its own: an index is a handle to memory
        for address in addressesSharingAHome(4) { index.insert(address) }
        for position in 0..<4 { #expect(index.find(position) != nil) }
        let buckets = (0..<4).map { index.find($0)! }
        #expect(Set(buckets).count == 4)
    }

    @Test func aRemovalKeepsTheRestOfItsProbeRunFindable() {
        for removed in 0..<4 {
            var index = SlotIndexTests()  // buckets of its own: an index is a handle to memory
            for address in addressesSharingAHome(4) { index.insert(address) }
            index.remove(removed)
            #expect(index.find(removed) == nil)
            for position in 0..<4 where position != removed {
                #expect(index.find(position) != nil, "position \(position) lost after removing \(removed)")
            }
            #expect(index.index.count == 3)
        }
    }

    @Test func probeRunsWrapAroundTheEndOfTheTable() {
        var index = SlotIndexTests()  // buckets of its own: an index is a handle to memory
        let last = index.index.size - 1
        let run = addressesSharingAHome(3, home: last)
        for address in run { index.insert(address) }
        #expect(index.find(0) == last)
        #expect(index.find(1) == 0)
        #expect(index.find(2) == 1)
        index.remove(0)
        #expect(index.find(1) != nil)
        #expect(index.find(2) != nil)
    }

    @Test func anEntryIsNotMovedBeforeItsHome() {
        // Positions 0 and 1 share a home; position 2's home is the bucket after it, where 1 landed, so 2 sits
        // one further. Removing 0 may move 1 back into its home's bucket, and 2 back after it, never before it.
        var index = SlotIndexTests()  // buckets of its own: an index is a handle to memory
        let first = addressesSharingAHome(2, home: 2)
        let second = addressesSharingAHome(1, home: 3)
        for address in first + second { index.insert(address) }
        index.remove(0)
        for position in 1...2 { #expect(index.find(position) != nil) }
        #expect(index.find(2)! >= 3)
    }

    @Test func removingAllKeepsTheBucketsWhenTheyAreTheRightSize() {
        var index = SlotIndexTests()  // buckets of its own: an index is a handle to memory
        for address in addressesSharingAHome(3) { index.insert(address) }
        let buckets = index.index.buckets
        index.index.removeAll(keepingRoomFor: 6)
        #expect(index.index.count == 0)
        #expect(index.index.buckets == buckets && index.index.size == 8)
        #expect(UnsafeBufferPointer(start: index.index.buckets, count: index.index.size).allSatisfy { $0 == -1 })
        index.index.removeAll(keepingRoomFor: 100)
        #expect(index.index.size == _SlotIndex.size(forCapacity: 100))
        #expect(_SlotIndex.size(forCapacity: 100) * 3 >= 100 * 4)
    }
}
