import _MulticastCore

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
/// and a yield that the buffer takes costs nothing more.
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
