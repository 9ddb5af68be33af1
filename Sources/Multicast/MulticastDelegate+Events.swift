import _MulticastCore

extension MulticastDelegate {
    /// Returns the events that a forwarder receives from now on, as an asynchronous sequence.
    ///
    /// You write the forwarder: a delegate that yields each call it receives to the continuation it is given,
    /// and may finish the sequence. The multicast calls it like any other delegate, in the order it was
    /// added; the sequence returns what it yielded, in the order it yielded it.
    ///
    /// ```swift
    /// @MainActor
    /// final class SignIns: SessionObserver {
    ///     let continuation: AsyncStream<String>.Continuation
    ///     init(_ continuation: AsyncStream<String>.Continuation) { self.continuation = continuation }
    ///
    ///     func sessionDidStart(user: String) { continuation.yield(user) }
    ///     func sessionDidEnd() { continuation.finish() }  // ends the `for await` loop
    /// }
    ///
    /// let signIns = AppEvents.session.events(bufferingPolicy: .unbounded, SignIns.init)
    /// for await user in signIns {
    ///     print(user, "signed in")
    /// }
    /// ```
    ///
    /// ### Lifetime
    ///
    /// The forwarder is added before `events` returns, so no event called after that is missed, even before
    /// the iteration starts. The sequence keeps the forwarder and the multicast alive; the multicast holds the
    /// forwarder weakly, as it holds every delegate added with ``add(_:file:line:)``. The forwarder is removed and
    /// released where the sequence is iterated or dropped, when the iteration ends: when the forwarder finishes the
    /// continuation, when the iterating task is cancelled, or when the sequence and its iterator are dropped (a
    /// `break` out of a `for await` loop). So nothing else needs to remove it, and a forwarder that is not
    /// `Sendable` never meets another thread. Removing it yourself, with ``remove(_:)`` or ``removeAll()``, stops
    /// its events but does not end the sequence: the iteration waits until the forwarder finishes the continuation
    /// or the task is cancelled.
    ///
    /// ### Buffering
    ///
    /// Events called while no one awaits the next element wait in a buffer, as `bufferingPolicy`, the standard
    /// library's `AsyncStream` policy, says. Nothing is dropped unless the policy says so, and then the forwarder
    /// can tell: `continuation.yield(_:)` returns `.dropped(element)`. Cancelling the iterating task ends the
    /// sequence once the events already buffered have been read. Iterate the sequence once, from one task at a
    /// time, as an `AsyncStream`; to have the events twice, call `events` twice, which adds two forwarders (see
    /// <doc:EventStreams>).
    ///
    /// - Parameters:
    ///   - elementType: The type of the sequence's elements; inferred when the forwarder says it.
    ///   - bufferingPolicy: How many events may wait for the consumer, and which are dropped beyond that.
    ///   - file: Where the forwarder is added, which diagnostics record; leave the default, the caller's file.
    ///   - line: Where the forwarder is added, which diagnostics record; leave the default, the caller's line.
    ///   - makeForwarder: Makes the forwarder: a new class instance that yields to the continuation it is
    ///     given. It is called once, before `events` returns.
    /// - Returns: The events, in the order the forwarder yielded them.
    /// - Precondition: The forwarder is a class instance that is not registered yet.
    /// - Complexity: Amortized O(1), as ``add(_:file:line:)``; removing the forwarder at the end is O(1) too.
    public func events<Element>(
        of elementType: Element.Type = Element.self,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ makeForwarder: (AsyncStream<Element>.Continuation) -> Delegate
    ) -> Events<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let forwarder = makeForwarder(continuation)
        if !add(forwarder, file: file, line: line) { Self._refuseRegisteredForwarder(forwarder) }
        return Events(_EventsSubscription(multicast: self, forwarder: forwarder, stream: stream, dropped: nil))
    }

    /// Returns the events that a forwarder receives from now on, as an asynchronous sequence whose consumer learns
    /// how many events the buffering policy dropped: the forwarder yields to an ``EventContinuation``, and the loop
    /// asks ``Events/takeDroppedCount()``.
    ///
    /// ```swift
    /// let messages = chat.events(bufferingPolicy: .bufferingNewest(50), Messages.init)
    /// for await message in messages {
    ///     if messages.takeDroppedCount() > 0 { await reloadHistory() }  // fell behind: the gap is refilled
    ///     show(message)
    /// }
    /// ```
    ///
    /// Everything else is as for the forwarder given the standard library's continuation: see
    /// ``events(of:bufferingPolicy:_:)``.
    ///
    /// - Parameters:
    ///   - elementType: The type of the sequence's elements; inferred when the forwarder says it.
    ///   - bufferingPolicy: How many events may wait for the consumer, and which are dropped beyond that.
    ///   - file: Where the forwarder is added, which diagnostics record; leave the default, the caller's file.
    ///   - line: Where the forwarder is added, which diagnostics record; leave the default, the caller's line.
    ///   - makeForwarder: Makes the forwarder: a new class instance that yields to the continuation it is
    ///     given. It is called once, before `events` returns.
    /// - Returns: The events, in the order the forwarder yielded them.
    /// - Precondition: The forwarder is a class instance that is not registered yet.
    /// - Complexity: Amortized O(1), as ``add(_:file:line:)``; a yield adds a test of its result to the standard
    ///   library's, a drop one lock, and neither allocates.
    @_disfavoredOverload  // where a closure could make either forwarder, the standard library's continuation, as before
    public func events<Element>(
        of elementType: Element.Type = Element.self,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ makeForwarder: (EventContinuation<Element>) -> Delegate
    ) -> Events<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let dropped = _DroppedEvents()
        let forwarder = makeForwarder(EventContinuation(continuation, counting: dropped))
        if !add(forwarder, file: file, line: line) { Self._refuseRegisteredForwarder(forwarder) }
        return Events(_EventsSubscription(multicast: self, forwarder: forwarder, stream: stream, dropped: dropped))
    }

    /// Returns the events that a forwarder receives from now on, as an asynchronous sequence: the spelling
    /// without the site, for code built against it; a call that names no site finds the one with `file` and
    /// `line`, which records the caller's.
    @_disfavoredOverload
    public func events<Element>(
        of elementType: Element.Type = Element.self,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        _ makeForwarder: (AsyncStream<Element>.Continuation) -> Delegate
    ) -> Events<Element> {
        events(of: elementType, bufferingPolicy: bufferingPolicy, file: #fileID, line: #line, makeForwarder)
    }

    @inline(never)
    static func _refuseUncountedEvents() -> Never {
        fatalError(
            """
            MulticastDelegate<\(Delegate.self)>.Events.takeDroppedCount(): the forwarder of these events yields to the \
            standard library's AsyncStream.Continuation, whose drops no one counts. Make the forwarder take an \
            EventContinuation<Element> instead (events(bufferingPolicy:_:) passes one to a closure or initializer \
            that takes one); it yields and finishes in the same words.
            """
        )
    }

    @inline(never)
    static func _refuseRegisteredForwarder(_ forwarder: Delegate) -> Never {
        fatalError(
            """
            MulticastDelegate<\(Delegate.self)>.events: the forwarder, \(type(of: forwarder as Any)), is already a \
            delegate of this multicast, and would be removed when the sequence ends. Return a new object from \
            the closure, one that yields to the continuation it is given.
            """
        )
    }

    /// The events that a forwarder receives from a multicast, as an asynchronous sequence that ends when the
    /// forwarder finishes it; made by ``MulticastDelegate/events(of:bufferingPolicy:_:)``.
    ///
    /// The sequence keeps its forwarder alive and registered while it or its iterator exists, and removes it
    /// from the multicast when the iteration ends.
    public struct Events<Element>: AsyncSequence {
        let subscription: _EventsSubscription<Delegate, Element>

        init(_ subscription: _EventsSubscription<Delegate, Element>) {
            self.subscription = subscription
        }

        /// Returns how many events the buffering policy has dropped since the last call, or since the sequence was
        /// made, and counts anew from zero: in a loop over the sequence, how many the loop missed since it last
        /// asked.
        ///
        /// The count is of the drops made by the time of the call. Where the policy keeps the newest events, those
        /// dropped were older than the events still waiting; where it keeps the oldest, they were newer, and the
        /// loop reads the events that waited before it would have read them. A policy that keeps none
        /// (`.bufferingNewest(0)` or `.bufferingOldest(0)`) drops, and counts, every event yielded while the loop
        /// is not waiting for one.
        ///
        /// Any task or thread may ask, the sequence's copies included: each drop is told once, to the first call
        /// that follows it, so a count taken elsewhere is not told to the loop.
        ///
        /// - Returns: The number of events dropped since the last call.
        /// - Precondition: The forwarder yields to an ``EventContinuation``: the sequence was made with a
        ///   `makeForwarder` that takes one. A forwarder given the standard library's continuation sees its drops
        ///   itself, as the results of its yields, and no one counts them for the consumer.
        /// - Complexity: O(1): one lock.
        public func takeDroppedCount() -> Int {
            guard let dropped = subscription.dropped else { MulticastDelegate._refuseUncountedEvents() }
            return dropped.take()
        }

        /// Returns the iterator of the sequence. Iterate once, from one task at a time.
        public func makeAsyncIterator() -> Iterator {
            Iterator(base: subscription.stream.makeAsyncIterator(), subscription: subscription)
        }

        /// The iterator of ``MulticastDelegate/Events``: it returns what the forwarder yielded, and removes
        /// the forwarder when it returns nil.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<Element>.Iterator
            let subscription: _EventsSubscription<Delegate, Element>

            /// Returns the next event, waiting for it if none is buffered; nil once the sequence has ended:
            /// when the forwarder has finished the continuation, or the iterating task is cancelled. Removing
            /// the forwarder from the multicast does not end it.
            public mutating func next() async -> Element? {
                let element = await base.next()
                if element == nil { subscription.end() }
                return element
            }

            /// Returns the next event as ``next()`` does, waiting for it on `actor`, the caller's.
            ///
            /// - Parameter actor: The actor of the caller, which `for await` passes.
            @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
            public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
                let element = await base.next(isolation: actor)
                if element == nil { subscription.end() }
                return element
            }
        }
    }
}

extension MulticastDelegate.Registration {
    /// Returns the events that a forwarder receives from now on, as an asynchronous sequence, as
    /// ``MulticastDelegate/events(of:bufferingPolicy:_:)`` does: a module that may only subscribe to a
    /// multicast's events may loop over them too.
    ///
    /// - Parameters:
    ///   - elementType: The type of the sequence's elements; inferred when the forwarder says it.
    ///   - bufferingPolicy: How many events may wait for the consumer, and which are dropped beyond that.
    ///   - file: Where the forwarder is added, which diagnostics record; leave the default, the caller's file.
    ///   - line: Where the forwarder is added, which diagnostics record; leave the default, the caller's line.
    ///   - makeForwarder: Makes the forwarder: a new class instance that yields to the continuation it is
    ///     given. It is called once, before `events` returns.
    /// - Returns: The events, in the order the forwarder yielded them.
    /// - Precondition: The forwarder is a class instance that is not registered yet.
    /// - Complexity: Amortized O(1), as ``add(_:file:line:)``.
    public func events<Element>(
        of elementType: Element.Type = Element.self,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ makeForwarder: (AsyncStream<Element>.Continuation) -> Delegate
    ) -> MulticastDelegate.Events<Element> {
        _multicast.events(of: elementType, bufferingPolicy: bufferingPolicy, file: file, line: line, makeForwarder)
    }

    /// Returns the events that a forwarder receives from now on, as an asynchronous sequence whose consumer learns
    /// how many events the buffering policy dropped, as the multicast's `events` does for a forwarder that takes
    /// an ``EventContinuation``.
    ///
    /// - Parameters:
    ///   - elementType: The type of the sequence's elements; inferred when the forwarder says it.
    ///   - bufferingPolicy: How many events may wait for the consumer, and which are dropped beyond that.
    ///   - file: Where the forwarder is added, which diagnostics record; leave the default, the caller's file.
    ///   - line: Where the forwarder is added, which diagnostics record; leave the default, the caller's line.
    ///   - makeForwarder: Makes the forwarder: a new class instance that yields to the continuation it is
    ///     given. It is called once, before `events` returns.
    /// - Returns: The events, in the order the forwarder yielded them.
    /// - Precondition: The forwarder is a class instance that is not registered yet.
    /// - Complexity: Amortized O(1), as ``add(_:file:line:)``.
    @_disfavoredOverload  // as the multicast's
    public func events<Element>(
        of elementType: Element.Type = Element.self,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ makeForwarder: (EventContinuation<Element>) -> Delegate
    ) -> MulticastDelegate.Events<Element> {
        _multicast.events(of: elementType, bufferingPolicy: bufferingPolicy, file: file, line: line, makeForwarder)
    }

    /// Returns the events that a forwarder receives from now on, as an asynchronous sequence: the spelling
    /// without the site, for code built against it; a call that names no site finds the one with `file` and
    /// `line`, which records the caller's.
    @_disfavoredOverload
    public func events<Element>(
        of elementType: Element.Type = Element.self,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        _ makeForwarder: (AsyncStream<Element>.Continuation) -> Delegate
    ) -> MulticastDelegate.Events<Element> {
        _multicast.events(of: elementType, bufferingPolicy: bufferingPolicy, file: #fileID, line: #line, makeForwarder)
    }
}

extension MulticastDelegate.Events: Sendable where Delegate: Sendable, Element: Sendable {}

// An iterator reads an `AsyncStream` iterator, which is not for sharing.
@available(*, unavailable)
extension MulticastDelegate.Events.Iterator: Sendable {}

/// What a sequence of events holds: the multicast, the forwarder it keeps alive, and the stream the forwarder
/// yields to. When the last sequence or iterator that holds it is gone, the forwarder is removed and released.
final class _EventsSubscription<Delegate, Element> {
    let multicast: MulticastDelegate<Delegate>
    let forwarder: Delegate
    let stream: AsyncStream<Element>
    /// What the forwarder's ``EventContinuation`` counts; nil for the standard library's continuation.
    let dropped: _DroppedEvents?

    init(
        multicast: MulticastDelegate<Delegate>, forwarder: Delegate, stream: AsyncStream<Element>,
        dropped: _DroppedEvents?
    ) {
        self.multicast = multicast
        self.forwarder = forwarder
        self.stream = stream
        self.dropped = dropped
    }

    /// Removes the forwarder from the multicast; removing it again changes nothing.
    func end() {
        multicast.remove(forwarder)
    }

    deinit {
        end()
    }
}

// A subscription holds a multicast, a delegate and an `AsyncStream`, all immutable, and changes nothing but the
// multicast, whose lock guards it: it may be shared across threads whenever its delegate and elements may.
extension _EventsSubscription: @unchecked Sendable where Delegate: Sendable, Element: Sendable {}

/// The continuation that a forwarder yields its events to when the consumer of the events is to learn how many the
/// buffering policy dropped: ``MulticastDelegate/Events/takeDroppedCount()`` answers it in the loop.
///
/// A forwarder takes one from a multicast's `events(bufferingPolicy:_:)` as it would take the
/// standard library's `AsyncStream<Element>.Continuation`, and yields and finishes in the same words:
///
/// ```swift
/// @MainActor
/// final class Messages: ChatObserver {
///     let continuation: EventContinuation<Message>
///     init(_ continuation: EventContinuation<Message>) { self.continuation = continuation }
///
///     func didReceive(_ message: Message) { continuation.yield(message) }
/// }
/// ```
///
/// It is the standard library's continuation and a count: a yield that the policy turns into a drop counts one,
/// under a lock; any other yield adds only a test of its result.
public struct EventContinuation<Element> {
    let base: AsyncStream<Element>.Continuation
    let dropped: _DroppedEvents

    init(_ base: AsyncStream<Element>.Continuation, counting dropped: _DroppedEvents) {
        self.base = base
        self.dropped = dropped
    }

    /// Yields an event to the sequence, as `AsyncStream.Continuation.yield(_:)` does; if the buffering policy drops
    /// an event to make room (an older event for `.bufferingNewest`, this one for `.bufferingOldest`), the drop is
    /// counted for ``MulticastDelegate/Events/takeDroppedCount()``.
    ///
    /// - Parameter event: The event.
    /// - Returns: What the standard library's continuation returns: `.enqueued(remaining:)`, `.dropped(event)` with
    ///   the event dropped, or `.terminated` once the sequence has ended (which is not a drop).
    @discardableResult
    public func yield(_ event: sending Element) -> AsyncStream<Element>.Continuation.YieldResult {
        let result = base.yield(event)
        if case .dropped = result { dropped.count() }
        return result
    }

    /// Ends the sequence: the consumer's loop ends once it has read the events already buffered.
    public func finish() {
        base.finish()
    }
}

extension EventContinuation: Sendable where Element: Sendable {}

/// How many events a sequence's buffering policy dropped since its consumer last asked.
final class _DroppedEvents: @unchecked Sendable {  // `dropped` is read and written under `lock` only
    private let lock = _Lock()
    private var dropped = 0

    /// Counts one drop.
    func count() {
        lock.lock()
        dropped += 1
        lock.unlock()
    }

    /// The drops counted since the last call, and zero from now on.
    func take() -> Int {
        lock.lock()
        defer { lock.unlock() }
        let taken = dropped
        dropped = 0
        return taken
    }
}
