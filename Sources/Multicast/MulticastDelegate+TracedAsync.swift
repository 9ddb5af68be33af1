// The members of `inTurn` and `concurrently` while diagnostics apply to the multicast: traced (see
// MulticastDelegate+Diagnostics.swift). Out of line, so that the members themselves only gain the branch that
// leads here.

import _MulticastCore

extension MulticastDelegate {
    /// Asks the delegates `question` in turn, as the members of ``inTurn`` do, until one answers `true`; returns
    /// that delegate. Traced as `operation`, for the handlers of `settings`, the boxed settings the core keeps.
    @usableFromInline
    nonisolated(nonsending) func _inTurnTraced<Failure: Error>(
        _ operation: MulticastTrace.Operation, settings: AnyObject,
        _ question: nonisolated(nonsending) (Delegate) async throws(Failure) -> Bool
    ) async throws(Failure) -> Delegate? {
        let settings = _DiagnosticsBox.settings(settings)
        var recorder = _TraceRecorder(operation: operation)
        recorder.interval = _SignpostInterval(settings.signposts, operation: operation, label: _core.label)
        var pass = unsafe _Pass(_core)
        var keeper: AnyObject?
        do throws(Failure) {
            while let slot = unsafe pass.next(keeping: &keeper) {
                // A copy: it must stay alive across the suspension.
                let delegate = unsafe slot.copyOfDelegate(as: Delegate.self)
                keeper = nil
                unsafe recorder.begin(delegate, of: self, strong: slot.isStrong, registration: slot.registration)
                let found = try await question(delegate)
                recorder.end()
                if found {
                    _deliver(recorder, threw: false, to: settings)
                    return delegate
                }
            }
        } catch {
            recorder.end()
            _deliver(recorder, threw: true, to: settings)
            throw error
        }
        _deliver(recorder, threw: false, to: settings)
        return nil
    }
}

extension MulticastDelegate where Delegate: Sendable {
    /// Asks every delegate at once, as the members of ``concurrently`` do, timing each child task. Traced as
    /// `operation`, for the handlers of `settings`, the boxed settings the core keeps.
    @usableFromInline
    nonisolated(nonsending) func _concurrentlyTraced<Answer: Sendable, Failure: Error>(
        _ operation: MulticastTrace.Operation, settings: AnyObject,
        _ transform: @Sendable (Delegate) async throws(Failure) -> Answer
    ) async throws(Failure) -> [Answer] {
        let settings = _DiagnosticsBox.settings(settings)
        let registered = _liveDelegates()
        let times = unsafe _TurnTimes(count: registered.count)
        defer { unsafe times.deallocate() }
        var positions: [ObjectIdentifier: Int] = [:]
        for (position, entry) in registered.enumerated() {
            unsafe positions[
                ObjectIdentifier(_Slot.object(of: entry.delegate)!.takeUnretainedValue())] =
                position
        }
        let started = _Diagnostics.now
        var recorder = _TraceRecorder(operation: operation, started: started)
        recorder.interval = _SignpostInterval(settings.signposts, operation: operation, label: _core.label)
        func deliver(threw: Bool) {
            for (position, entry) in registered.enumerated() {
                let time = unsafe times[position]
                recorder.record(
                    entry.delegate, of: self, strong: entry.retention.isStrong, registration: entry.registration,
                    started: time.started, ended: time.ended)
            }
            _deliver(recorder, threw: threw, to: settings)
        }
        do throws(Failure) {
            // Each child task writes the times of its own position alone; the group's end orders those writes
            // before `deliver` reads them.
            let answers = try await concurrently._map(registered.map(\.delegate)) {
                [positions] (delegate: Delegate) async throws(Failure) -> Answer in
                let object = unsafe _Slot.object(of: delegate)!.takeUnretainedValue()
                let position = positions[ObjectIdentifier(object)]!
                let turnStarted = _Diagnostics.now
                defer { unsafe times.set(position, started: turnStarted, ended: _Diagnostics.now) }
                return try await transform(delegate)
            }
            deliver(threw: false)
            return answers
        } catch {
            deliver(threw: true)
            throw error
        }
    }
}
