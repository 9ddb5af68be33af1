// How a call is traced. The call loops tell an observer of each delegate's turn: an untraced call's, `_Untraced`,
// does nothing and is inlined away, in an unoptimized build too; a traced call's, `_TraceRecorder`, times and
// records each turn. So a traced call runs the loop of an untraced one; once its pass has ended, and the delegates
// it held are let go of, the recorder gives the trace to the handlers. The members of the multicast and of its
// views gain only the branch that leads here (see `_startTrace`).

import _MulticastCore

/// What a call loop tells of each delegate's turn, and, as the observer of its pass, of each registration that it
/// found ended with its owner.
@usableFromInline
protocol _TurnObserver: _PassObserver, ~Copyable {
    /// The turn of the delegate of `slot`, which the pass has just given and keeps alive, begins.
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

/// What a traced call records as it goes: when it started, and each turn. It holds a reading of the multicast's
/// records, begun before the call's pass, and looks up the turns' sites as it delivers the trace.
struct _TraceRecorder: ~Copyable, _TurnObserver {
    struct Turn {
        var delegateType: any AnyObject.Type
        var delegateID: ObjectIdentifier
        var strong: Bool
        var registration: Int64
        var started: UInt64
        var ended: UInt64
    }

    let settings: _DiagnosticsBox
    let multicastType: Any.Type
    let label: String?
    let operation: MulticastTrace.Operation
    let started: UInt64
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
        interval = _SignpostInterval(settings.settings.signposts, operation: operation, label: label)
        started = _Diagnostics.now
    }

    mutating func turnBegins(_ slot: _Slot) {
        let object = unsafe slot.object.takeUnretainedValue()
        turns.append(
            Turn(
                delegateType: type(of: object), delegateID: ObjectIdentifier(object), strong: unsafe slot.isStrong,
                registration: unsafe slot.registration, started: 0, ended: 0))
        turns[turns.count - 1].started = _Diagnostics.now  // last, so that the turn's time is the body's
    }

    mutating func turnReturned() {
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

    /// Ends the recording, and gives the trace, and its slow turns, to the handlers of the settings: on the calling
    /// thread, marked as running them, with no lock held. Call it once the call's pass has ended, so that a handler
    /// finds the delegates let go of as an untraced call would have left them.
    consuming func deliver(threw: Bool) {
        let ended = _Diagnostics.now
        if turns.count > 0 && turns[turns.count - 1].ended == 0 { turns[turns.count - 1].ended = ended }
        interval?.end()  // see MulticastDelegate+Signposts.swift
        let (records, endedUncalled) = reading.end(
            lookingUp: turns.map(\.registration), called: true, ended: deadRegistrations, named: true)
        var traced: [MulticastTrace.Turn] = []
        traced.reserveCapacity(turns.count)
        for (turn, record) in zip(turns, records) {
            traced.append(
                MulticastTrace.Turn(
                    delegateType: turn.delegateType, delegateID: turn.delegateID,
                    retention: turn.strong ? .strong : .weak, site: record?.site,
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
    /// The start of a traced call, if settings apply to this multicast and the calling thread is not running a
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
