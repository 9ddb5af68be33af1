extension MulticastDelegate {
    /// A view of a multicast that lets delegates add and remove themselves, and tells whether one is registered,
    /// but cannot call the delegates or list them.
    ///
    /// A module that owns a multicast can publish its ``MulticastDelegate/registration`` and keep the multicast
    /// itself private, so that other modules subscribe to its events without being able to send them:
    ///
    /// ```swift
    /// public final class TabBar {
    ///     private let delegates = MulticastDelegate<any TabBarDelegate>()
    ///
    ///     /// Where screens subscribe to the tab bar's events.
    ///     public var observers: MulticastDelegate<any TabBarDelegate>.Registration {
    ///         delegates.registration
    ///     }
    ///
    ///     func select(tag: Int) {
    ///         delegates.call { $0.tabBarDidSelect(tag: tag) }  // only the tab bar calls them
    ///     }
    /// }
    ///
    /// tabBar.observers.add(screen)
    /// ```
    ///
    /// A registration keeps its multicast alive, and behaves as the multicast does: ``add(_:file:line:)`` holds a
    /// delegate weakly, and every member may be used from any thread. It is `Sendable` when the multicast is.
    // Frozen: a view is its multicast and nothing else, which its inlined members read; so a client built against
    // Multicast as a binary framework holds a view as the reference it is, and its inlinable init may set it.
    @frozen
    public struct Registration {
        @usableFromInline
        let _multicast: MulticastDelegate<Delegate>

        @inlinable
        init(_ multicast: MulticastDelegate<Delegate>) {
            _multicast = multicast
        }

        /// Adds a delegate, held weakly, after those registered, as ``MulticastDelegate/add(_:file:line:)`` does.
        ///
        /// - Parameters:
        ///   - delegate: A class instance. If it is already registered weakly, nothing changes.
        ///   - file: Where the delegate is added, which diagnostics record; leave the default.
        ///   - line: Where the delegate is added, which diagnostics record; leave the default.
        /// - Returns: `true` if the delegate was added, `false` if it was already registered weakly.
        /// - Precondition: `delegate` is a class instance, is not being deallocated (called from its `deinit`),
        ///   is not this registration's multicast, and is not registered strongly: remove it first, then add it
        ///   weakly.
        /// - Complexity: Amortized O(1).
        @inlinable
        @discardableResult
        public func add(_ delegate: Delegate, file: StaticString = #fileID, line: UInt = #line) -> Bool {
            _multicast.add(delegate, file: file, line: line)
        }

        /// Adds a delegate after those already registered, held as `retention` says, as
        /// ``MulticastDelegate/add(_:retention:file:line:)`` does.
        ///
        /// - Parameters:
        ///   - delegate: A class instance. If it is already registered with this retention, nothing changes, and
        ///     it keeps its position.
        ///   - retention: Whether the multicast keeps the delegate alive.
        ///   - file: Where the delegate is added, which diagnostics record; leave the default.
        ///   - line: Where the delegate is added, which diagnostics record; leave the default.
        /// - Returns: `true` if the delegate was added, `false` if it was already registered with this retention.
        /// - Precondition: `delegate` is a class instance, is not being deallocated (called from its `deinit`),
        ///   is not this registration's multicast, and is not registered with the other retention: remove it
        ///   first, then add it with the retention it should have.
        /// - Complexity: Amortized O(1).
        @inlinable
        @discardableResult
        public func add(
            _ delegate: Delegate, retention: Retention, file: StaticString = #fileID, line: UInt = #line
        ) -> Bool {
            _multicast.add(delegate, retention: retention, file: file, line: line)
        }

        /// Adds a delegate held strongly for as long as `owner` lives, found, replaced and removed by `owner`, as
        /// ``MulticastDelegate/add(_:ownedBy:file:line:)`` does.
        ///
        /// - Parameters:
        ///   - delegate: A class instance, held strongly until the registration ends.
        ///   - owner: The object whose life the registration lasts, not kept alive, and told apart by identity. A
        ///     second registration for the same owner replaces the first.
        ///   - file: Where the delegate is added, which diagnostics record; leave the default.
        ///   - line: Where the delegate is added, which diagnostics record; leave the default.
        /// - Returns: `true` if the delegate was registered; `false` if `owner` is being deallocated.
        /// - Precondition: `delegate` is a class instance, is not being deallocated, and is neither the
        ///   multicast nor `owner`; `owner` is not the multicast.
        /// - Complexity: Amortized O(1).
        @inlinable
        @discardableResult
        public func add(
            _ delegate: Delegate, ownedBy owner: AnyObject, file: StaticString = #fileID, line: UInt = #line
        ) -> Bool {
            _multicast.add(delegate, ownedBy: owner, file: file, line: line)
        }

        /// Removes the registration that `owner` made, as ``MulticastDelegate/remove(ownedBy:)`` does.
        ///
        /// - Parameter owner: The owner whose registration to remove, by identity.
        /// - Returns: `true` if this removal ended `owner`'s registration; `false` if `owner` has none, or, from the
        ///   owner's `deinit`, if a call released it first.
        /// - Complexity: Amortized O(1).
        @inlinable
        @discardableResult
        public func remove(ownedBy owner: AnyObject) -> Bool {
            _multicast.remove(ownedBy: owner)
        }

        /// The delegate of the registration that `owner` made, as ``MulticastDelegate/delegate(ownedBy:)``
        /// finds it.
        ///
        /// - Parameter owner: The owner whose delegate to find, by identity.
        /// - Complexity: O(1).
        @inlinable
        public func delegate(ownedBy owner: AnyObject) -> Delegate? {
            _multicast.delegate(ownedBy: owner)
        }

        /// Removes a delegate, as ``MulticastDelegate/remove(_:)`` does.
        ///
        /// - Parameter delegate: The delegate to remove.
        /// - Returns: `true` if the delegate was registered, `false` otherwise (also for a value that is not a
        ///   class instance, which can never be registered).
        /// - Complexity: Amortized O(1).
        @inlinable
        @discardableResult
        public func remove(_ delegate: Delegate) -> Bool {
            _multicast.remove(delegate)
        }

        /// Returns whether a delegate is registered, as ``MulticastDelegate/contains(_:)`` does.
        ///
        /// - Parameter delegate: The delegate to look for, by identity.
        /// - Complexity: O(1).
        @inlinable
        public func contains(_ delegate: Delegate) -> Bool {
            _multicast.contains(delegate)
        }
    }

    /// A view of this multicast that adds, removes and looks for delegates, and nothing else: what a module can
    /// publish so that others subscribe to its events without being able to send them (see ``Registration``).
    @inlinable
    public var registration: Registration {
        Registration(self)
    }
}

// A registration holds only its multicast, which is `Sendable` under the same condition.
extension MulticastDelegate.Registration: Sendable where Delegate: Sendable {}
