import _MulticastShims

/// The count of passes that read a storage, and a flag that asks the last of them to collect, in one word that
/// passes change with atomic operations: a storage's ticket's (see ``_Ticket``).
///
/// A pass counts itself in without the lock, then checks the gate (see ``_Gate``), or under the lock; it counts
/// itself out without it. So, with the lock held, once no pass can enter the storage (it is not the current one,
/// or the gate is closed), the count can only go down, but for passes that count themselves in and out again at
/// once, having found the gate changed; once it is zero no pass reads the storage.
@usableFromInline
enum _Readers {
    /// Set when the registry has work that waits for the storage's readers: the last one to leave collects it.
    @inlinable
    @inline(always)
    static var collectBit: Int { Int.min }

    /// Counts a pass in; call it with the lock held. (A pass that enters without the lock counts itself in with
    /// ``_Core/enterPass()``'s sequentially consistent add.)
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

    /// Whether no pass reads the storage: a sequentially consistent load, which follows the write of the gate that
    /// keeps passes out (see ``_Gate``). Call it with the lock held, once no pass can enter the storage.
    @inlinable
    @inline(always)
    static func isUnread(_ word: UnsafeMutablePointer<Int>) -> Bool {
        unsafe _multicast_load_seq_cst(word) & ~collectBit == 0
    }

    /// Who does the work that waits for a storage's readers: the caller, `now`, if no pass reads the storage; else
    /// the last pass to leave it.
    @usableFromInline
    enum WhenToCollect {
        case now
        case byLastReader
    }

    /// Arranges for the work that waits for the storage's readers (see ``WhenToCollect``), setting the flag for
    /// the last pass to leave if passes read it. Call it with the lock held, once no pass can enter the storage.
    @inlinable
    @inline(always)
    static func collectNowOrByLastReader(_ word: UnsafeMutablePointer<Int>) -> WhenToCollect {
        if unsafe _multicast_load_seq_cst(word) == 0 { return .now }
        guard unsafe _multicast_fetch_or_acquire(word, collectBit) & ~collectBit == 0 else { return .byLastReader }
        unsafe forgetCollect(word)  // the last reader left meanwhile: no one is left to collect
        return .now
    }

    /// Clears the flag of a storage that no pass reads, whose waiting work the caller has just done: the last
    /// reader may have left with the flag set and not collected yet, and would otherwise leave it set for
    /// every later pass to take the lock again on leaving. An atomic AND, which keeps the count of a pass that
    /// counts itself in and out again at once. Call it with the lock held, once ``isUnread(_:)`` returned true.
    @inlinable
    @inline(always)
    static func forgetCollect(_ word: UnsafeMutablePointer<Int>) {
        unsafe _multicast_fetch_and_relaxed(word, ~collectBit)
    }
}
