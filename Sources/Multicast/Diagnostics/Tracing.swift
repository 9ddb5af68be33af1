// How a call is watched and traced. The call loops tell an observer of each delegate's turn: an untraced call's,
// `_Untraced`, does nothing and is inlined away, in an unoptimized build too; a watched call's, `_TraceRecorder`,
// notes which registrations it called and, if the settings trace calls, times each turn. So a watched call runs the
// loop of an untraced one, and the members of the multicast and its views gain only the branch to `_startTrace`.

import _MulticastCore

/// What a call loop tells of each delegate's turn, and, as the observer of its pass, of each registration that it
/// found ended with its owner.
@usableFromInline
protocol _TurnObserver: _PassObserver, ~Copyable {
    /// The turn of the delegate of `slot`, which the pass has just given and keeps alive, with its owner, begins.
    mutating func turnBegins(_ slot: _Slot)

    /// The turn begun last has returned. (A turn that throws ends with the call.)
    mutating func turnReturned()
}

/// The observer of an untraced call: it does nothing, and, inlined, costs nothing.
@frozen
@usableFromInline
struct _Untraced: _TurnObserver {
    @inlinable
    @inline(always)
    init() {}

    @inlinable
    @inline(always)
    mutating func turnBegins(_ slot: _Slot) {}

    @inlinable
    @inline(always)
    mutating func turnReturned() {}

    @inlinable
    @inline(always)
    mutating func passSkippedDeadRegistration(_ registration: Int64) {}
}

/// What a watched call records as it goes: how far it called, and, if its settings trace calls, when it started and
/// each turn. It holds a reading of the multicast's records, begun before the call's pass, and looks up the turns'
/// sites as it delivers the trace.
struct _TraceRecorder: ~Copyable, _TurnObserver {
    struct Turn {
        var registration: Int64
        var delegateType: any AnyObject.Type
        var delegateID: ObjectIdentifier
        var strong: Bool
        var ownerType: (any AnyObject.Type)?
        var started: UInt64
        var ended: UInt64
    }

    let settings: _DiagnosticsBox
    let multicastType: Any.Type
    let label: String?
    let operation: MulticastTrace.Operation
    let started: UInt64
    /// The registration of the last delegate the call gave a turn.
    var lastCalled: Int64 = 0
    /// The turns, in order, when the settings trace calls; else none: the call is watched, not traced.
    var turns: [Turn] = []
    /// The registrations that the call's pass found ended with their owners.
    var deadRegistrations: [Int64] = []
    /// The call's interval in Instruments, if its settings have signposts; ended as the trace is delivered.
    let interval: _SignpostInterval?
    private var reading: _NotesReading

    /// Starts recording a call of `operation` that `start` starts, on a multicast of type `multicastType` named
    /// `label`.
    init(_ operation: MulticastTrace.Operation, _ start: consuming _TraceStart, multicastType: Any.Type, label: String?)
    {
        settings = start.settings
        reading = start.reading
        self.multicastType = multicastType
        self.label = label
        self.operation = operation
        let traces = settings.tracesCalls
        interval = traces ? _SignpostInterval(settings.settings.signposts, operation: operation, label: label) : nil
        started = traces ? _Diagnostics.now : 0
    }

    mutating func turnBegins(_ slot: _Slot) {
        lastCalled = unsafe slot.registration
        guard settings.tracesCalls else { return }
        let object = unsafe slot.object.takeUnretainedValue()
        let ownerType: (any AnyObject.Type)? =
            unsafe slot.holding == .owned ? type(of: slot.owner.takeUnretainedValue()) : nil
        turns.append(
            Turn(
                registration: lastCalled, delegateType: type(of: object), delegateID: ObjectIdentifier(object),
                strong: unsafe slot.isStrong, ownerType: ownerType, started: 0, ended: 0))
        turns[turns.count - 1].started = _Diagnostics.now  // last, so that the turn's time is the body's
    }

    mutating func turnReturned() {
        guard settings.tracesCalls else { return }
        turns[turns.count - 1].ended = _Diagnostics.now
    }

    mutating func passSkippedDeadRegistration(_ registration: Int64) {
        deadRegistrations.append(registration)
    }

    /// Gives each turn the start and end that `times` has at its position: the times of a concurrent call's tasks.
    mutating func setTimes(_ times: _TurnTimes) {
        for position in turns.indices {
            let time = unsafe times[position]
            turns[position].started = time.started
            turns[position].ended = time.ended
        }
    }

    /// Ends the recording: notes how far the call called, and, if the settings trace calls, gives the trace, and its
    /// slow turns, to the handlers: on the calling thread, marked as running them, with no lock held. Call it once
    /// the call's pass has ended, so that a handler finds the delegates let go of as an untraced call would have
    /// left them.
    consuming func deliver(threw: Bool) {
        guard settings.tracesCalls else {
            _ = reading.end(lookingUp: [], calledThrough: lastCalled, ended: deadRegistrations)
            return
        }
        let ended = _Diagnostics.now
        if turns.count > 0 && turns[turns.count - 1].ended == 0 { turns[turns.count - 1].ended = ended }
        interval?.end()  // see MulticastDelegate+Signposts.swift
        let (records, endedUncalled) = reading.end(
            lookingUp: turns.map(\.registration), calledThrough: lastCalled, ended: deadRegistrations, named: true)
        var traced: [MulticastTrace.Turn] = []
        traced.reserveCapacity(turns.count)
        for (turn, record) in zip(turns, records) {
            traced.append(
                MulticastTrace.Turn(
                    delegateType: turn.delegateType, delegateID: turn.delegateID,
                    retention: turn.strong ? .strong : .weak, ownerType: turn.ownerType, site: record?.site,
                    elapsedNanoseconds: turn.ended &- turn.started))
        }
        let trace = MulticastTrace(
            _multicastType: multicastType, label: label, operation: operation, turns: traced,
            endedBeforeTheirFirstCall: endedUncalled, elapsedNanoseconds: ended &- started, threw: threw)
        let settings = settings.settings
        _Diagnostics.runHooks {
            settings.traceHandler?(trace)
            guard let threshold = settings.slowTurnNanoseconds, let slowTurnHandler = settings.slowTurnHandler else {
                return
            }
            for turn in trace.turns where turn.elapsedNanoseconds > threshold {
                slowTurnHandler(turn, trace)
            }
        }
    }
}

extension MulticastDelegate {
    /// The start of a watched call, if settings apply to this multicast and the calling thread is not running a
    /// diagnostics handler; nil otherwise. What every call asks while diagnostics are on somewhere: the one gate
    /// of each kind of call, after `_Diagnostics.areOnAnywhere`.
    @usableFromInline
    func _startTrace() -> _TraceStart? {
        _notes.startTrace()
    }

    /// A recorder of a call of `operation` that `start` starts.
    func _recorder(_ operation: MulticastTrace.Operation, _ start: consuming _TraceStart) -> _TraceRecorder {
        _TraceRecorder(operation, start, multicastType: Self.self, label: _notes.label)
    }

    /// ``call(_:)-rlcb``, traced: the call's loop, then the trace.
    @usableFromInline
    @inline(never)
    func _callTraced<Failure: Error>(
        _ body: (Delegate) throws(Failure) -> Void, _ start: consuming _TraceStart
    ) throws(Failure) {
        var recorder = _recorder(.call, start)
        do throws(Failure) {
            try _call(body, observing: &recorder)
        } catch {
            recorder.deliver(threw: true)
            throw error
        }
        recorder.deliver(threw: false)
    }
}

/// The start and end of each child task of a traced concurrent call, a position per delegate.
///
/// Unchecked: each position is written by one child task alone, and read once the group has ended. Unsafe: the
/// positions are not checked, and the memory is freed by hand, once.
@unsafe
struct _TurnTimes: @unchecked Sendable {
    let times: UnsafeMutableBufferPointer<(started: UInt64, ended: UInt64)>

    init(count: Int) {
        unsafe times = .allocate(capacity: count)
        unsafe times.initialize(repeating: (0, 0))
    }

    func set(_ position: Int, started: UInt64, ended: UInt64) {
        unsafe times[position] = (started, ended)
    }

    subscript(position: Int) -> (started: UInt64, ended: UInt64) {
        unsafe times[position]
    }

    func deallocate() {
        unsafe times.deallocate()
    }
}
