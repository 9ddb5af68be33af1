import _MulticastCore

// The multicast's own members are synchronous. Async work goes through a view that names how the delegates are
// scheduled, `inTurn` or `concurrently`, so that no async member competes with a synchronous one (in async code,
// Swift would pick an async `map` for a key path, `map(\.title)`, and ask for an `await`).

extension MulticastDelegate {
    /// The delegates called, or asked async questions, in turn: one after another, in the order they were added,
    /// on the caller's actor.
    ///
    /// ```swift
    /// @MainActor
    /// func quit() async -> Bool {
    ///     await documents.inTurn.allSatisfy { await $0.mayClose() }  // stops at the first that refuses
    /// }
    /// ```
    ///
    /// Each body finishes before the next delegate's starts, and everything runs on the caller's actor, so the
    /// delegates need not be `Sendable`. To call them all at once instead, use ``concurrently``.
    @inlinable
    public var inTurn: InTurn {
        InTurn(self)
    }

    /// A view of a multicast whose members call the delegates, or ask them async questions, one after another on
    /// the caller's actor (see ``MulticastDelegate/inTurn``). It holds its multicast strongly, and nothing else.
    // Frozen, as `Registration` is.
    @frozen
    public struct InTurn {
        @usableFromInline
        let _multicast: MulticastDelegate<Delegate>

        @inlinable
        init(_ multicast: MulticastDelegate<Delegate>) {
            _multicast = multicast
        }

        /// Calls an async `body` with every delegate, one after another, in the order they were added, on the
        /// caller's actor.
        ///
        /// ```swift
        /// @MainActor
        /// func documentDidSave() async {
        ///     await editors.inTurn.call { await $0.reload() }  // each reload runs on the main actor, in order
        /// }
        /// ```
        ///
        /// Each `body` finishes before the next one starts. The call follows the rules of the synchronous
        /// ``MulticastDelegate/call(_:)-rlcb`` across suspension points too: it visits the delegates registered
        /// when it started, less those removed or deallocated before their turn, and keeps the delegate whose
        /// body is running alive until that body returns. No lock is held while `body` runs or is suspended.
        ///
        /// The call and `body` are `nonisolated(nonsending)`: they run on the caller's actor and never send the
        /// delegates anywhere, so the delegates need not be `Sendable`. For a `body` with no `await`, the
        /// synchronous ``MulticastDelegate/call(_:)-rlcb`` does the same without suspending. The call does not
        /// check for cancellation itself; a `body` can throw `CancellationError` to end it.
        ///
        /// - Parameter body: What to do with each delegate. If it throws, no further delegate is called and the
        ///   error is rethrown, with its type.
        /// - Complexity: O(*n*) plus the bodies, with the costs of the synchronous
        ///   ``MulticastDelegate/call(_:)-rlcb``, and no allocation. While the call is suspended, the list of
        ///   delegates it reads stays in memory, with what delegates removed meanwhile held.
        @inlinable
        nonisolated(nonsending) public func call<Failure: Error>(
            _ body: nonisolated(nonsending) (Delegate) async throws(Failure) -> Void
        ) async throws(Failure) {
            defer { extendLifetime(_multicast) }  // the pass holds the core unretained: keep it alive to its end
            if _Diagnostics.areOnAnywhere, let start = _multicast._startTrace() {
                _ = try await _multicast._inTurnTraced(.inTurnCall, start) {
                    delegate async throws(Failure) in
                    try await body(delegate)
                    return false
                }
                return
            }
            var pass = unsafe _Pass(_multicast._core)
            // A copy of each delegate: it must stay alive across the suspension.
            while let delegate = pass.nextDelegate(as: Delegate.self) {
                try await body(delegate)
            }
        }

        /// Asks every delegate an async question, one after another, in the order they were added, on the caller's
        /// actor, and returns the answers in that order.
        ///
        /// ```swift
        /// let titles = await editors.inTurn.map { await $0.title() }  // each on the caller's actor, in order
        /// ```
        ///
        /// - Parameter transform: The question for each delegate. If it throws, no further delegate is asked and
        ///   the error is rethrown, with its type.
        /// - Returns: The answers, in the order the delegates were added.
        /// - Complexity: O(*n*) plus the questions.
        @inlinable
        nonisolated(nonsending) public func map<Answer, Failure: Error>(
            _ transform: nonisolated(nonsending) (Delegate) async throws(Failure) -> Answer
        ) async throws(Failure) -> [Answer] {
            var answers: [Answer] = []
            defer { extendLifetime(_multicast) }  // the pass holds the core unretained: keep it alive to its end
            if _Diagnostics.areOnAnywhere, let start = _multicast._startTrace() {
                _ = try await _multicast._inTurnTraced(.inTurnMap, start) {
                    delegate async throws(Failure) in
                    answers.append(try await transform(delegate))
                    return false
                }
                return answers
            }
            var pass = unsafe _Pass(_multicast._core)
            while let delegate = pass.nextDelegate(as: Delegate.self) {
                answers.append(try await transform(delegate))
            }
            return answers
        }

        /// Returns the first delegate whose async answer to `predicate` is true, asking them one after another, in
        /// the order they were added, on the caller's actor.
        ///
        /// ```swift
        /// let opener = await openers.inTurn.first { await $0.canOpen(url) }
        /// ```
        ///
        /// - Parameter predicate: A question for each delegate; no delegate after the first `true` is asked. If it
        ///   throws, no further delegate is asked and the error is rethrown, with its type.
        /// - Complexity: O(*n*) plus the questions.
        @inlinable
        nonisolated(nonsending) public func first<Failure: Error>(
            where predicate: nonisolated(nonsending) (Delegate) async throws(Failure) -> Bool
        ) async throws(Failure) -> Delegate? {
            try await _first(.inTurnFirst, predicate)
        }

        /// Returns whether any delegate's async answer to `predicate` is true, asking them one after another, in
        /// the order they were added, on the caller's actor.
        ///
        /// - Parameter predicate: A question for each delegate; no delegate after the first `true` is asked. If it
        ///   throws, no further delegate is asked and the error is rethrown, with its type.
        /// - Complexity: O(*n*) plus the questions.
        @inlinable
        nonisolated(nonsending) public func contains<Failure: Error>(
            where predicate: nonisolated(nonsending) (Delegate) async throws(Failure) -> Bool
        ) async throws(Failure) -> Bool {
            try await _first(.inTurnContains, predicate) != nil
        }

        /// Returns whether every delegate's async answer to `predicate` is true, asking them one after another, in
        /// the order they were added, on the caller's actor.
        ///
        /// - Parameter predicate: A question for each delegate; no delegate after the first `false` is asked. If it
        ///   throws, no further delegate is asked and the error is rethrown, with its type.
        /// - Complexity: O(*n*) plus the questions.
        @inlinable
        nonisolated(nonsending) public func allSatisfy<Failure: Error>(
            _ predicate: nonisolated(nonsending) (Delegate) async throws(Failure) -> Bool
        ) async throws(Failure) -> Bool {
            try await _first(.inTurnAllSatisfy) { delegate async throws(Failure) in try await !predicate(delegate) }
                == nil
        }

        /// The first delegate whose answer to `predicate` is true, asking them in turn: ``first(where:)``,
        /// ``contains(where:)`` and ``allSatisfy(_:)``, traced as `operation` while diagnostics apply.
        @inlinable
        nonisolated(nonsending) func _first<Failure: Error>(
            _ operation: @autoclosure () -> MulticastTrace.Operation,
            _ predicate: nonisolated(nonsending) (Delegate) async throws(Failure) -> Bool
        ) async throws(Failure) -> Delegate? {
            defer { extendLifetime(_multicast) }  // the pass holds the core unretained: keep it alive to its end
            if _Diagnostics.areOnAnywhere, let start = _multicast._startTrace() {
                return try await _multicast._inTurnTraced(operation(), start, predicate)
            }
            var untraced = _Untraced()
            return try await _first(observing: &untraced, predicate)
        }

        /// The loop of ``first(where:)``, traced or not: asks the delegates `predicate` in turn, telling `observer`
        /// of each turn, until one answers `true`; returns that delegate. Its pass has ended when it returns.
        @inlinable
        nonisolated(nonsending) func _first<Failure: Error, Observer: _TurnObserver & ~Copyable>(
            observing observer: inout Observer,
            _ predicate: nonisolated(nonsending) (Delegate) async throws(Failure) -> Bool
        ) async throws(Failure) -> Delegate? {
            var pass = unsafe _Pass(_multicast._core)
            var keeper: AnyObject?
            while let slot = unsafe pass.next(keeping: &keeper, observing: &observer) {
                // A copy: it must stay alive across the suspension, and the keeper is let go of at once.
                let delegate = unsafe slot.copyOfDelegate(as: Delegate.self)
                keeper = nil
                unsafe observer.turnBegins(slot)
                let found = try await predicate(delegate)
                observer.turnReturned()
                if found { return delegate }
            }
            return nil
        }
    }
}

// The view holds only its multicast, which is `Sendable` under the same condition.
extension MulticastDelegate.InTurn: Sendable where Delegate: Sendable {}

extension MulticastDelegate where Delegate: Sendable {
    /// The delegates called, or asked async questions, all at once: each in a child task, off the caller's actor.
    ///
    /// ```swift
    /// protocol SyncService: AnyObject, Sendable {
    ///     func synchronize() async throws
    /// }
    ///
    /// try await services.concurrently.call { try await $0.synchronize() }
    /// ```
    ///
    /// The bodies run concurrently, so the delegates must be `Sendable`; for delegates that must run on one
    /// actor, use ``inTurn``, which calls them one after another on the caller's actor.
    @inlinable
    public var concurrently: Concurrently {
        Concurrently(self)
    }

    /// A view of a multicast whose members call the delegates, or ask them async questions, all at once, each in
    /// a child task (see ``MulticastDelegate/concurrently``). It holds its multicast strongly, and nothing else.
    // Frozen, as `Registration` is.
    @frozen
    public struct Concurrently: Sendable {
        @usableFromInline
        let _multicast: MulticastDelegate<Delegate>

        @inlinable
        init(_ multicast: MulticastDelegate<Delegate>) {
            _multicast = multicast
        }

        /// Calls `body` with every delegate at once, each in a child task, and returns when all have finished.
        ///
        /// The call starts one child task for each delegate registered and alive when it starts, and holds each
        /// delegate alive until its body returns. It lists them all before it starts the first task, so a body
        /// that adds or removes delegates changes nothing for this call.
        ///
        /// If a body throws, the other bodies' tasks are cancelled, and the first error thrown is rethrown once
        /// all have finished. If the calling task is cancelled, so are the bodies' tasks: a body can check
        /// `Task.isCancelled` or call `try Task.checkCancellation()`. `Failure` is inferred from `body`: a body
        /// that throws nothing makes the call throw nothing, as with `rethrows`.
        ///
        /// - Parameter body: What to do with each delegate.
        /// - Throws: The first error that a body threw, after every body has finished.
        /// - Complexity: O(*n*) child tasks, and an array of the *n* delegates, listed without a lock.
        @inlinable  // specialized at the call site, so that no child task runs unspecialized generic code
        nonisolated(nonsending) public func call<Failure: Error>(
            _ body: @Sendable (Delegate) async throws(Failure) -> Void
        ) async throws(Failure) {
            _ = try await _run(.concurrentlyCall, body)
        }

        /// Asks every delegate at once, each in a child task, and returns their answers in the order the
        /// delegates were added.
        ///
        /// ```swift
        /// let statuses = await providers.concurrently.map { await $0.status() }  // [String], in the order added
        /// ```
        ///
        /// The delegates, errors and cancellation follow the rules of ``call(_:)``.
        ///
        /// - Parameter transform: The question for each delegate.
        /// - Returns: The answers, in the order the delegates were added, whatever order they arrived in.
        /// - Throws: The first error that a transform threw, after every transform has finished.
        /// - Complexity: O(*n*) child tasks, and an array of the *n* delegates, listed without a lock.
        @inlinable  // specialized at the call site, so that no child task runs unspecialized generic code
        nonisolated(nonsending) public func map<Answer: Sendable, Failure: Error>(
            _ transform: @Sendable (Delegate) async throws(Failure) -> Answer
        ) async throws(Failure) -> [Answer] {
            try await _run(.concurrentlyMap, transform)
        }

        /// ``map(_:)``, traced as `operation` while diagnostics apply.
        @inlinable
        nonisolated(nonsending) func _run<Answer: Sendable, Failure: Error>(
            _ operation: @autoclosure () -> MulticastTrace.Operation,
            _ transform: @Sendable (Delegate) async throws(Failure) -> Answer
        ) async throws(Failure) -> [Answer] {
            if _Diagnostics.areOnAnywhere, let start = _multicast._startTrace() {
                return try await _multicast._concurrentlyTraced(operation(), start, transform)
            }
            // Every delegate is listed before the first task starts: a task that removed delegates while the
            // listing walked them would otherwise leave later ones with no task.
            return try await _map(Array(_multicast)) { _, delegate async throws(Failure) in
                try await transform(delegate)
            }
        }

        /// Asks each of `delegates` at once, each in a child task, and returns their answers in the order of
        /// `delegates`: ``map(_:)``, once the delegates are listed. `transform` is given each delegate's position
        /// in `delegates` too.
        @inlinable
        nonisolated(nonsending) func _map<Answer: Sendable, Failure: Error>(
            _ delegates: consuming [Delegate], _ transform: @Sendable (Int, Delegate) async throws(Failure) -> Answer
        ) async throws(Failure) -> [Answer] {
            // The group's errors are `any Error`, so each child task returns a `Result`, and the first failure is
            // thrown once the group has finished. `withoutActuallyEscaping` is sound: the group does not return
            // before every child task has finished. It is given a closure that returns a `Result`, not `transform`,
            // so that no generic code needs the metadata of a typed-throws function type, which Apple platforms
            // have only from macOS 15 and iOS 18 on.
            let attempt = { @Sendable (index: Int, delegate: Delegate) async -> Result<Answer, Failure> in
                do throws(Failure) {
                    return .success(try await transform(index, delegate))
                } catch {
                    return .failure(error)
                }
            }
            let outcome: Result<[Answer], Failure> = await withoutActuallyEscaping(attempt) { attempt in
                await withTaskGroup(of: (Int, Result<Answer, Failure>).self) { group in
                    let count = delegates.count
                    for index in 0..<count {
                        let delegate = delegates[index]
                        group.addTask { (index, await attempt(index, delegate)) }
                    }
                    delegates = []  // from here on, each task alone holds its delegate, until its body returns
                    var answers = [Answer?](repeating: nil, count: count)
                    var firstFailure: Failure?
                    for await (index, result) in group {
                        switch result {
                        case .success(let answer):
                            answers[index] = answer
                        case .failure(let error):
                            if firstFailure == nil {
                                firstFailure = error
                                group.cancelAll()
                            }
                        }
                    }
                    if let firstFailure { return .failure(firstFailure) }
                    return .success(answers.map { $0! })
                }
            }
            return try outcome.get()
        }
    }
}

// The spellings from before the async members moved to the views, with a warning whose fix-it names the new one.
extension MulticastDelegate {
    /// Deprecated: call the delegates in turn with ``inTurn``: `await multicast.inTurn.call { ... }`.
    @available(*, deprecated, renamed: "inTurn.call(_:)")
    @inlinable
    nonisolated(nonsending) public func call<Failure: Error>(
        _ body: nonisolated(nonsending) (Delegate) async throws(Failure) -> Void
    ) async throws(Failure) {
        try await inTurn.call(body)
    }
}

extension MulticastDelegate where Delegate: Sendable {
    /// Deprecated: call the delegates all at once with ``concurrently``: `await multicast.concurrently.call { ... }`.
    @available(*, deprecated, renamed: "concurrently.call(_:)")
    @inlinable
    nonisolated(nonsending) public func callConcurrently<Failure: Error>(
        _ body: @Sendable (Delegate) async throws(Failure) -> Void
    ) async throws(Failure) {
        try await concurrently.call(body)
    }

    /// Deprecated: ask the delegates all at once with ``concurrently``: `await multicast.concurrently.map { ... }`.
    @available(*, deprecated, renamed: "concurrently.map(_:)")
    @inlinable
    nonisolated(nonsending) public func mapConcurrently<Answer: Sendable, Failure: Error>(
        _ transform: @Sendable (Delegate) async throws(Failure) -> Answer
    ) async throws(Failure) -> [Answer] {
        try await concurrently.map(transform)
    }
}

// Overloads that no code can call: they turn what a user writes first, `await multicast.allSatisfy { await
// $0.mayClose() }`, into an error that names `inTurn`. Swift picks an unavailable overload only when nothing else
// fits, so a key path or a synchronous closure still finds the synchronous member.
extension MulticastDelegate {
    /// Unavailable: ask async questions in turn, with ``inTurn``.
    @available(*, unavailable, message: "ask async questions in turn: `await multicast.inTurn.map { ... }`")
    public func map<Answer>(_ transform: (Delegate) async throws -> Answer) async rethrows -> [Answer] {
        fatalError("unavailable")
    }

    /// Unavailable: ask async questions in turn, with ``inTurn``.
    @available(*, unavailable, message: "ask async questions in turn: `await multicast.inTurn.first { ... }`")
    public func first(where predicate: (Delegate) async throws -> Bool) async rethrows -> Delegate? {
        fatalError("unavailable")
    }

    /// Unavailable: ask async questions in turn, with ``inTurn``.
    @available(*, unavailable, message: "ask async questions in turn: `await multicast.inTurn.contains { ... }`")
    public func contains(where predicate: (Delegate) async throws -> Bool) async rethrows -> Bool {
        fatalError("unavailable")
    }

    /// Unavailable: ask async questions in turn, with ``inTurn``.
    @available(*, unavailable, message: "ask async questions in turn: `await multicast.inTurn.allSatisfy { ... }`")
    public func allSatisfy(_ predicate: (Delegate) async throws -> Bool) async rethrows -> Bool {
        fatalError("unavailable")
    }
}
