import _MulticastCore

extension MulticastDelegate: Sequence {
    /// Iterates over the delegates, in the order they were added, for results from them.
    ///
    /// Iteration follows the same rules as ``MulticastDelegate/call(_:)-rlcb``: it visits the delegates registered
    /// when ``MulticastDelegate/makeIterator()`` was called, less those removed or deallocated before their
    /// turn. So `map`, `compactMap`, `reduce`, `allSatisfy`, `contains(where:)` and `first(where:)` return what
    /// the delegates answer:
    ///
    /// ```swift
    /// let unread = chats.reduce(0) { $0 + $1.unreadCount }
    /// let allowed = editors.allSatisfy { $0.shouldClose(document) }
    /// ```
    ///
    /// An iterator holds the delegates it has yet to visit alive only while it returns them: it yields each
    /// one as a strong reference and keeps no other.
    ///
    /// ``MulticastDelegate/first(where:)``, ``MulticastDelegate/contains(where:)`` and
    /// ``MulticastDelegate/allSatisfy(_:)`` are the multicast's own, and allocate nothing, as `call` does. The
    /// members that `Sequence` brings (`forEach`, `map`, `reduce`, ...) make an iterator, which allocates one small
    /// object: send an event with `call`, not `forEach`.
    // Frozen: the iterator is its reader and nothing else, which `next()`, inlined into the caller, reads; a
    // client built against Multicast as a binary framework holds it as the reference it is.
    @frozen
    public struct Iterator: IteratorProtocol {
        @usableFromInline
        let _reader: _IterationReader<Delegate>

        @inlinable
        init(_ core: _Core) {
            _reader = _IterationReader(core)
        }

        /// Returns the next live, registered delegate, or nil after the last one.
        @inlinable
        @inline(always)
        public mutating func next() -> Delegate? {
            _reader.next()
        }
    }

    /// Returns an iterator over the delegates registered now, in the order they were added.
    ///
    /// - Complexity: O(1); no lock, and one allocation, for the object that ends the iterator's pass when
    ///   the last copy of the iterator is gone. Each step then costs what a call's step costs, plus, for a
    ///   strong or owned delegate, the retain of the delegate it returns (see <doc:Performance>).
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(_core)
    }

    /// Returns the first delegate that satisfies `predicate`, asking them in the order they were added.
    ///
    /// ```swift
    /// let handler = openers.first { $0.canOpen(url) }
    /// ```
    ///
    /// - Parameter predicate: A question for each delegate; no delegate after the first `true` is asked.
    /// - Complexity: O(*n*).
    @inlinable
    @inline(always)
    public func first(where predicate: (Delegate) throws -> Bool) rethrows -> Delegate? {
        defer { extendLifetime(self) }  // the pass holds the core unretained: keep it alive to the pass's end
        var pass = unsafe _Pass(_core)
        var keeper: AnyObject?
        while let slot = unsafe pass.next(keeping: &keeper) {
            if unsafe try slot.lend(as: Delegate.self, predicate) {
                return unsafe slot.copyOfDelegate(as: Delegate.self)
            }
        }
        return nil
    }

    /// Returns whether any delegate satisfies `predicate`, asking them in the order they were added.
    ///
    /// - Parameter predicate: A question for each delegate; no delegate after the first `true` is asked.
    /// - Complexity: O(*n*).
    @inlinable
    @inline(always)
    public func contains(where predicate: (Delegate) throws -> Bool) rethrows -> Bool {
        defer { extendLifetime(self) }  // the pass holds the core unretained: keep it alive to the pass's end
        var pass = unsafe _Pass(_core)
        var keeper: AnyObject?
        while let slot = unsafe pass.next(keeping: &keeper) {
            if unsafe try slot.lend(as: Delegate.self, predicate) { return true }
        }
        return false
    }

    /// Returns whether every delegate satisfies `predicate`, asking them in the order they were added.
    ///
    /// - Parameter predicate: A question for each delegate; no delegate after the first `false` is asked.
    /// - Complexity: O(*n*).
    @inlinable
    @inline(always)
    public func allSatisfy(_ predicate: (Delegate) throws -> Bool) rethrows -> Bool {
        try !contains { try !predicate($0) }
    }
}

// An iterator is one pass over a snapshot of the delegates, read through unsafe pointers: it is not for sharing
// between concurrent contexts. (The multicast is; make an iterator in each.)
@available(*, unavailable)
extension MulticastDelegate.Iterator: Sendable {}

/// The pass of an iterator, which ends when the last copy of the iterator is gone: an iterator may be dropped
/// before its last delegate.
@usableFromInline
final class _IterationReader<Delegate> {
    /// Kept alive for the pass, which does not keep it alive.
    let core: _Core

    /// Nil once ended: the pass must end while `core` is still held. Its accesses need no exclusivity check at
    /// run time: only `next()` and `deinit` reach it, neither calls out to code that could reach it again, and the
    /// iterator that holds the reader is not `Sendable`.
    @usableFromInline
    @exclusivity(unchecked)
    var pass: _Pass?

    @usableFromInline
    init(_ core: _Core) {
        self.core = core
        unsafe pass = unsafe _Pass(core)
    }

    /// The next delegate of the pass, or nil after the last: inlined into the loop that iterates, where the
    /// delegate's type is known, so that a step costs a call's step and the copy it returns.
    @inlinable
    @inline(always)
    func next() -> Delegate? {
        unsafe pass!.nextDelegate(as: Delegate.self)
    }

    deinit {
        unsafe pass = nil
    }
}
