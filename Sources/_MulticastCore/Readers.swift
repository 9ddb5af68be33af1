import _MulticastShims

/// The count of passes that read a storage, and a flag that asks the last of them to collect, in one word that
/// passes change with atomic operations.
///
/// A pass enters under the lock and leaves without it. So, with the lock held, the count can only go down;
/// once it is zero no pass reads the storage, and none can start reading it while the lock is held.
@usableFromInline
enum _Readers {
    /// Set when the registry has work that waits for the storage's readers: the last one to leave collects it.
    @inlinable
    @inline(always)
    static var collectBit: Int { Int.min }

    /// Counts a pass in; call it with the lock held.
    @inlinable
    @inline(always)
    static func enter(_ word: UnsafeMutablePointer<Int>) {
        _ = unsafe _multicast_fetch_add_relaxed(word, 1)
    }

    /// Counts a pass out, with release ordering so that its reads happen before whatever the registry does
    /// once the count is zero. Returns whether this pass was the last reader and must collect.
    @inlinable
    @inline(always)
    static func leave(_ word: UnsafeMutablePointer<Int>) -> Bool {
        unsafe _multicast_fetch_sub_release(word, 1) == collectBit | 1
    }

    /// Whether no pass reads the storage. Call it with the lock held.
    @inlinable
    @inline(always)
    static func isUnread(_ word: UnsafeMutablePointer<Int>) -> Bool {
        unsafe _multicast_load_acquire(word) & ~collectBit == 0
    }

    /// When the work that waits for a storage's readers is to be done, as ``collectNowOrByLastReader(_:)``
    /// arranges it.
    @usableFromInline
    enum WhenToCollect {
        /// No pass reads the storage: the caller does the work.
        case now
        /// Passes read the storage: the last of them to leave does the work.
        case byLastReader
    }

    /// Arranges for the work that waits for the storage's readers: to be done now by the caller, if no pass
    /// reads it, else by the last pass to leave, for which it sets the flag. Call it with the lock held.
    @inlinable
    @inline(always)
    static func collectNowOrByLastReader(_ word: UnsafeMutablePointer<Int>) -> WhenToCollect {
        if unsafe _multicast_load_acquire(word) == 0 { return .now }
        guard unsafe _multicast_fetch_or_acquire(word, collectBit) & ~collectBit == 0 else { return .byLastReader }
        unsafe _multicast_store_relaxed(word, 0)  // the last reader left meanwhile: no one is left to collect
        return .now
    }

    /// Clears the flag of a storage that no pass reads, whose waiting work the caller has just done: the last
    /// reader may have left with the flag set and not collected yet, and would otherwise leave it set for
    /// every later pass to take the lock again on leaving. Call it with the lock held, once
    /// ``isUnread(_:)`` returned true.
    @inlinable
    @inline(always)
    static func forgetCollect(_ word: UnsafeMutablePointer<Int>) {
        unsafe _multicast_store_relaxed(word, 0)
    }
}
