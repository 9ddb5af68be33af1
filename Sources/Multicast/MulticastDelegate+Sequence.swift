extension MulticastDelegate: Sequence {
    /// Iterates over the delegates, in the order they were added, for results from them.
    ///
    /// Iteration follows the same rules as ``MulticastDelegate/call(_:)-2rusk``: it visits the delegates registered
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
    public struct Iterator: IteratorProtocol {
        @usableFromInline
        let _reader: _IterationReader<Delegate>

        @usableFromInline
        var _slot: UnsafeMutablePointer<_Slot<Delegate>>

        @inlinable
        init(_ core: _Locked<_Registry<Delegate>>) {
            _reader = _IterationReader(core)
            _slot = _reader.pass.slots
        }

        /// Returns the next live, registered delegate, or nil after the last one.
        @inlinable
        public mutating func next() -> Delegate? {
            var dead = 0
            while _slot < _reader.pass.end {
                let slot = _slot
                _slot += 1
                if let delegate = _Slot.lend(slot, dead: &dead, { $0 }) { return delegate }
            }
            return nil
        }
    }

    /// Returns an iterator over the delegates registered now, in the order they were added.
    ///
    /// - Complexity: O(1); one lock, and one allocation, for the object that ends the iterator's pass when
    ///   the last copy of the iterator is gone.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(_core)
    }

    /// A lower bound of the number of delegates: zero, since checking whether they are alive costs a pass.
    @inlinable
    public var underestimatedCount: Int { 0 }

    /// Returns the first delegate that satisfies `predicate`, asking them in the order they were added.
    ///
    /// ```swift
    /// let handler = openers.first { $0.canOpen(url) }
    /// ```
    ///
    /// - Parameter predicate: A question for each delegate; no delegate after the first `true` is asked.
    /// - Complexity: O(*n*).
    @inlinable
    public func first(where predicate: (Delegate) throws -> Bool) rethrows -> Delegate? {
        var found: Delegate?
        try _forEachLive { delegate in
            guard try predicate(delegate) else { return true }
            found = delegate
            return false
        }
        return found
    }

    /// Returns whether any delegate satisfies `predicate`, asking them in the order they were added.
    ///
    /// - Parameter predicate: A question for each delegate; no delegate after the first `true` is asked.
    /// - Complexity: O(*n*).
    @inlinable
    public func contains(where predicate: (Delegate) throws -> Bool) rethrows -> Bool {
        var found = false
        try _forEachLive { delegate in
            found = try predicate(delegate)
            return !found
        }
        return found
    }

    /// Returns whether every delegate satisfies `predicate`, asking them in the order they were added.
    ///
    /// ```swift
    /// let mayClose = editors.allSatisfy { $0.shouldClose(document) }
    /// ```
    ///
    /// - Parameter predicate: A question for each delegate; no delegate after the first `false` is asked.
    /// - Complexity: O(*n*).
    @inlinable
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
    @usableFromInline
    let core: _Locked<_Registry<Delegate>>  // the pass does not keep it alive

    @usableFromInline
    let pass: _Pass<Delegate>

    @inlinable
    init(_ core: _Locked<_Registry<Delegate>>) {
        self.core = core
        pass = _Pass(core)
    }

    deinit {
        pass.finish()
    }
}
