// The members of `inTurn` and `concurrently`, traced (see Tracing.swift). In a file of their own, apart from the
// traced call's recorder: Embedded Swift, which the 32-bit check builds with, has no concurrency.

import _MulticastCore

extension MulticastDelegate {
    /// The members of ``inTurn``, traced as `operation`: asks the delegates `question` in turn, as
    /// ``InTurn/first(where:)`` does, then delivers the trace; returns the delegate that answered `true`.
    @usableFromInline
    nonisolated(nonsending) func _inTurnTraced<Failure: Error>(
        _ operation: MulticastTrace.Operation, _ start: consuming _TraceStart,
        _ question: nonisolated(nonsending) (Delegate) async throws(Failure) -> Bool
    ) async throws(Failure) -> Delegate? {
        var recorder = _recorder(operation, start)
        let found: Delegate?
        do throws(Failure) {
            found = try await inTurn._first(observing: &recorder, question)
        } catch {
            recorder.deliver(threw: true)
            throw error
        }
        recorder.deliver(threw: false)
        return found
    }
}

extension MulticastDelegate where Delegate: Sendable {
    /// The members of ``concurrently``, traced as `operation`: asks every delegate at once, timing each child
    /// task, then delivers the trace.
    ///
    /// The delegates are listed as an untraced call lists them, and handed to the child tasks in the same way, so
    /// that each task alone holds its delegate until its body returns; the recorder keeps of each only its
    /// identity and type.
    @usableFromInline
    nonisolated(nonsending) func _concurrentlyTraced<Answer: Sendable, Failure: Error>(
        _ operation: MulticastTrace.Operation, _ start: consuming _TraceStart,
        _ transform: @Sendable (Delegate) async throws(Failure) -> Answer
    ) async throws(Failure) -> [Answer] {
        var recorder = _recorder(operation, start)
        var delegates: [Delegate] = []
        do {
            var pass = unsafe _Pass(_core)
            var keeper: AnyObject?
            while let slot = unsafe pass.next(keeping: &keeper, observing: &recorder) {
                unsafe delegates.append(slot.copyOfDelegate(as: Delegate.self))
                unsafe recorder.turnBegins(slot)
            }
        }
        let times = unsafe _TurnTimes(count: delegates.count)
        defer { unsafe times.deallocate() }
        let answers: [Answer]
        do throws(Failure) {
            // Each child task writes the times of its own turn, at its delegate's position, alone (one object may
            // have two registrations, so the position is the delegate's in the listing, not its identity's); the
            // group's end orders those writes before `setTimes` reads them.
            answers = try await concurrently._map(consume delegates) {
                (position: Int, delegate: Delegate) async throws(Failure) -> Answer in
                let turnStarted = _Diagnostics.now
                defer { unsafe times.set(position, started: turnStarted, ended: _Diagnostics.now) }
                return try await transform(delegate)
            }
        } catch {
            unsafe recorder.setTimes(times)
            recorder.deliver(threw: true)
            throw error
        }
        unsafe recorder.setTimes(times)
        recorder.deliver(threw: false)
        return answers
    }
}
