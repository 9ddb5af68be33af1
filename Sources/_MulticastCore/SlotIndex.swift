/// Where each registered object's slot is: an open-addressing hash table of slot positions, keyed by the
/// address of the slot's object, with linear probing.
///
/// A bucket is four bytes, against sixteen (and SipHash) for a `[ObjectIdentifier: Int]`; the key is not
/// stored but read from the slot. Buckets may hold slots whose object died, until the storage is rebuilt;
/// so one address may appear twice, for a dead delegate and a new object that the allocator placed at its
/// address, and a lookup checks each slot it finds (see ``_Registry/find(_:owned:)``).
///
/// An index is pointers and numbers only, so that code copies and calls it without retaining anything, in an
/// unoptimized build too. Its one hazard is its lifetime: a copy must not be used once its owner, replacing it or
/// going, has freed the buckets with ``deallocate()``, unsafe to call. Within that it is safe: every bucket it
/// reads or writes is masked to its size.
@safe
@usableFromInline
struct _SlotIndex {
    /// Slot positions; `-1` for an empty bucket.
    @usableFromInline
    let buckets: UnsafeMutablePointer<Int32>

    /// The number of buckets: a power of two.
    @usableFromInline
    let size: Int

    /// Buckets in use.
    ///
    /// Its setter is as visible as its getter: the inlinable `insert` and `remove` set it, and a module interface
    /// leaves out a `private(set)` setter, which the compiler lets inlinable code use without a word.
    @usableFromInline
    var count = 0

    /// `Int.bitWidth - log2(size)`: the hash is the high bits of a multiplicative hash of the address.
    @usableFromInline
    let shift: Int

    /// An index with room for `capacity` positions before it must grow.
    @usableFromInline
    init(capacity: Int) {
        size = Self.size(forCapacity: capacity)
        unsafe buckets = .allocate(capacity: size)
        unsafe buckets.initialize(repeating: -1, count: size)
        shift = Int.bitWidth - size.trailingZeroBitCount
    }

    /// Frees the buckets; the index may not be used afterwards.
    @unsafe
    @usableFromInline
    func deallocate() {
        unsafe buckets.deallocate()
    }

    /// The number of buckets that holds `capacity` positions at a load of three quarters at most.
    static func size(forCapacity capacity: Int) -> Int {
        var size = 8
        while size * 3 < capacity * 4 { size *= 2 }
        return size
    }

    /// Empties the index, keeping its buckets if they are the size that `capacity` positions need.
    @usableFromInline
    mutating func removeAll(keepingRoomFor capacity: Int) {
        guard Self.size(forCapacity: capacity) == size else {
            unsafe deallocate()
            self = _SlotIndex(capacity: capacity)
            return
        }
        unsafe buckets.update(repeating: -1, count: size)
        count = 0
    }

    /// Whether one more position fits without exceeding a load of three quarters.
    @inlinable
    @inline(always)
    var hasRoom: Bool {
        (count + 1) * 4 <= size * 3
    }

    /// The first bucket to probe for `address`: Fibonacci hashing, the high bits of the address times the word
    /// size's power of two divided by the golden ratio.
    @inlinable
    @inline(always)
    func home(of address: UInt) -> Int {
        Int(truncatingIfNeeded: (address &* Self.multiplier) >> UInt(shift))
    }

    #if _pointerBitWidth(_64)
    @inlinable
    @inline(always)
    static var multiplier: UInt { 0x9E37_79B9_7F4A_7C15 }  // 2^64 / φ
    #else
    @inlinable
    @inline(always)
    static var multiplier: UInt { 0x9E37_79B9 }  // 2^32 / φ, for 32-bit platforms such as watchOS on arm64_32
    #endif

    /// The position that `bucket` holds, or nil if it is empty: where a probe run ends.
    @inlinable
    @inline(always)
    func position(inBucket bucket: Int) -> Int? {
        let position = unsafe buckets[bucket & (size - 1)]
        return position >= 0 ? Int(position) : nil
    }

    /// The bucket to probe after `bucket`.
    @inlinable
    @inline(always)
    func bucket(after bucket: Int) -> Int {
        (bucket + 1) & (size - 1)
    }

    /// The bucket that holds `position`, the slot of `address`, which the index lists.
    @usableFromInline
    func bucket(holding position: Int, address: UInt) -> Int {
        var bucket = home(of: address)
        while unsafe buckets[bucket] != Int32(truncatingIfNeeded: position) {
            unsafe precondition(buckets[bucket] >= 0, "the index does not list slot \(position)")
            bucket = self.bucket(after: bucket)
        }
        return bucket
    }

    /// Adds `position`, the slot of `address`. There must be room.
    @inlinable
    @inline(always)
    mutating func insert(_ position: Int, address: UInt) {
        precondition(position < Int(Int32.max), "Multicast holds at most \(Int32.max) delegates")
        var bucket = home(of: address)
        while unsafe buckets[bucket] >= 0 { bucket = self.bucket(after: bucket) }
        unsafe buckets[bucket] = Int32(truncatingIfNeeded: position)
        count += 1
    }

    /// Adds the slot of every registration in `slots`; there must be room for them. Beside ``insert(_:address:)``,
    /// so that an unoptimized build inlines it (see "Writing the call path" in CONTRIBUTING.md).
    mutating func insertRegistrations(of slots: _StorageHandle) {
        var slot = unsafe slots.base
        var position = 0
        let count = slots.count
        while position < count {
            if unsafe slot.key.isCallable {
                unsafe insert(position, address: slot.address)
            }
            unsafe slot = slot.advanced(by: 1, stride: slots.layout.stride)
            position += 1
        }
    }

    /// Empties `bucket`, moving later entries of its probe run back so that every lookup still finds them.
    @inlinable
    @inline(always)
    mutating func remove(bucket: Int, address: (_ position: Int) -> UInt) {
        let mask = size - 1
        var hole = bucket & mask
        var next = (hole + 1) & mask
        while unsafe buckets[next] >= 0 {
            // The entry at `next` may fill the hole unless its home lies after the hole, up to `next`.
            let home = unsafe home(of: address(Int(buckets[next])))
            if (next &- home) & mask >= (next &- hole) & mask {
                unsafe buckets[hole] = unsafe buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        unsafe buckets[hole] = -1
        count -= 1
    }
}
