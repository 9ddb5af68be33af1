// Diagnostics: where each delegate was added, a trace of every call, slow delegates, and who is still registered.
// Off by default, and free while off: a call and an add each read one word, which is nonzero only while some
// multicast or the process has diagnostics on (`_Diagnostics` in the core), and take the paths here only then.
// How traces and sites read as text is in MulticastTrace+Description.swift.

import _MulticastCore

/// Where a delegate was added: the file and line of the `add` call that registered it.
///
/// A multicast records the site of each `add` while diagnostics are on for it or for the process (see
/// ``MulticastDiagnostics``); traces, ``MulticastDelegate/registeredDelegates()`` and `debugPrint` show it.
/// (Named for the registration it marks, as ``MulticastDelegate/registeredDelegates()`` lists them: a
/// `SourceLocation` would clash with Swift Testing's in a test file that imports both.)
public struct RegistrationSite: Sendable, Hashable, CustomStringConvertible {
    let _site: _Site

    init(_ site: _Site) {
        _site = site
    }

    /// The `#fileID` of the `add` call: the module and the file's name, `Chat/ChatSession.swift`.
    public var fileID: String {
        _site.fileID.description
    }

    /// The line of the `add` call.
    public var line: UInt {
        _site.line
    }

    /// The file's name without its module, and the line: `ChatSession.swift:40`, as an editor's "go to" reads it.
    public var description: String {
        let fileID = fileID
        let name = fileID.lastIndex(of: "/").map { fileID[fileID.index(after: $0)...] } ?? Substring(fileID)
        return "\(name):\(line)"
    }

    /// Whether two sites are the same file and line.
    public static func == (lhs: RegistrationSite, rhs: RegistrationSite) -> Bool {
        lhs.line == rhs.line && lhs.fileID == rhs.fileID
    }

    /// Hashes the file and the line.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileID)
        hasher.combine(line)
    }
}

/// What a multicast reports about its calls, and to whom: set it on one multicast, or for the whole process.
///
/// ```swift
/// messages.diagnostics = .printing                       // one line per call, with every delegate's time
/// MulticastDiagnostics.processWide = MulticastDiagnostics(traceHandler: { trace in
///     logger.debug("\(trace)")                           // every call of every multicast
/// })
/// ```
///
/// Diagnostics are off by default, and free while off: with no settings on any multicast or the process, a
/// call and an add each read one word more than they would without diagnostics, and record nothing. While
/// some multicast has settings, each call and add of the others also looks up whether settings apply to it,
/// under its lock and the process-wide settings' lock, and then runs as it would without diagnostics.
///
/// While settings apply to a multicast, from its own ``MulticastDelegate/diagnostics`` or else from
/// ``processWide``:
/// - each `add` records where it was made (its ``RegistrationSite``);
/// - each call (``MulticastDelegate/call(_:)-rlcb``, and the members of ``MulticastDelegate/inTurn`` and
///   ``MulticastDelegate/concurrently``) times every delegate's turn and, once it has ended, gives a
///   ``MulticastTrace`` to ``traceHandler``, and each turn longer than ``slowTurnNanoseconds`` to
///   ``slowTurnHandler``. Iterating the multicast, and its synchronous `map`, `first` and `contains`, is not
///   traced.
///
/// The handlers run on the thread that made the call, after the call, with no lock held: they may use any
/// multicast, this one included. A call made from inside a handler is not traced, so that a handler that calls
/// a multicast does not trace itself without end. A traced call allocates its trace.
///
/// Durations are in nanoseconds of a monotonic clock, so that diagnostics work on every platform the package
/// supports: Swift's `Duration` needs macOS 13, iOS 16, tvOS 16 and watchOS 9.
public struct MulticastDiagnostics: Sendable {
    /// Given each traced call's ``MulticastTrace`` once the call has ended; nil for none.
    public var traceHandler: (@Sendable (MulticastTrace) -> Void)?

    /// The longest turn that is not slow, in nanoseconds: a delegate's turn that takes longer goes to
    /// ``slowTurnHandler``. Nil: no turn is slow.
    public var slowTurnNanoseconds: UInt64?

    /// Given each turn longer than ``slowTurnNanoseconds``, with the trace of its call, once the call has
    /// ended and ``traceHandler`` has had the trace; nil for none.
    public var slowTurnHandler: (@Sendable (MulticastTrace.Turn, MulticastTrace) -> Void)?

    /// Where each traced call goes as an interval in Instruments, on Apple's platforms; nil, the default, for
    /// none. See ``MulticastSignposts`` and ``signposting``.
    public var signposts: MulticastSignposts? = nil

    /// Creates settings that give each trace to `traceHandler` and each turn longer than `slowTurnNanoseconds`
    /// to `slowTurnHandler`.
    ///
    /// ```swift
    /// hub.diagnostics = MulticastDiagnostics(slowTurnNanoseconds: 16_000_000) { turn, trace in
    ///     logger.warning("slow: \(turn), in \(trace.multicastName)")  // ChatScreen (weak, ChatScreen.swift:18) 21.3 ms
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - traceHandler: Given each traced call's trace.
    ///   - slowTurnNanoseconds: The longest turn that is not slow, in nanoseconds; nil: none is.
    ///   - slowTurnHandler: Given each slow turn, with the trace of its call.
    public init(
        traceHandler: (@Sendable (MulticastTrace) -> Void)? = nil,
        slowTurnNanoseconds: UInt64? = nil,
        slowTurnHandler: (@Sendable (MulticastTrace.Turn, MulticastTrace) -> Void)? = nil
    ) {
        self.traceHandler = traceHandler
        self.slowTurnNanoseconds = slowTurnNanoseconds
        self.slowTurnHandler = slowTurnHandler
    }

    /// The settings for every multicast that has none of its own; nil, the default, for none.
    ///
    /// Observing every call of every multicast, as a `NotificationCenter` observer of every name does:
    ///
    /// ```swift
    /// MulticastDiagnostics.processWide = .printing
    /// ```
    ///
    /// It may be set and read from any thread. A call that starts after the setting, in the order that the
    /// thread's own code or any synchronization gives, sees it.
    public static var processWide: MulticastDiagnostics? {
        get { (_Diagnostics.processWide as? _DiagnosticsBox)?.settings }
        set { _Diagnostics.processWide = newValue.map(_DiagnosticsBox.init) }
    }
}

extension MulticastDelegate {
    /// This multicast's diagnostics settings; nil, the default, for none, in which case those of
    /// ``MulticastDiagnostics/processWide`` apply.
    ///
    /// ```swift
    /// messages.diagnostics = .printing  // a line per call of this multicast
    /// messages.diagnostics = nil        // off again
    /// ```
    ///
    /// It may be set and read from any thread; a call that starts after the setting sees it.
    public var diagnostics: MulticastDiagnostics? {
        get { (_core.diagnostics as? _DiagnosticsBox)?.settings }
        set { _core.diagnostics = newValue.map(_DiagnosticsBox.init) }
    }

    /// A registered delegate, how it is held, and where it was added.
    public struct RegisteredDelegate {
        /// The delegate: a strong reference, which the snapshot keeps until it is let go of.
        public let delegate: Delegate

        /// How the multicast holds the delegate.
        public let retention: Retention

        /// Where the delegate was added, if diagnostics were on for the multicast or the process then.
        public let site: RegistrationSite?
    }

    /// The live delegates, in the order they are called, each with how it is held and where it was added: for a
    /// leak hunt, the strong delegates and whoever added them.
    ///
    /// ```swift
    /// for registered in hub.registeredDelegates() where registered.retention == .strong {
    ///     print(registered.delegate, registered.site.map { "added at \($0)" } ?? "")
    /// }
    /// ```
    ///
    /// A site is known for the delegates added while diagnostics were on for this multicast or the process.
    ///
    /// - Returns: A snapshot that holds every delegate in it strongly: let go of it when done.
    /// - Complexity: O(*n*): one pass, and the lock once more to read the sites.
    public func registeredDelegates() -> [RegisteredDelegate] {
        let delegates = _liveDelegates()
        let sites = _core.sites(of: delegates.map(\.registration))
        var registered: [RegisteredDelegate] = []
        registered.reserveCapacity(delegates.count)
        for (live, site) in zip(delegates, sites) {
            registered.append(
                RegisteredDelegate(
                    delegate: live.delegate, retention: live.retention, site: site.map(RegistrationSite.init)))
        }
        return registered
    }

    /// The live delegates, in call order, each with its retention and registration number: strong references,
    /// for the caller to let go of. One pass, which holds the lock only to start; no delegate code runs during it.
    func _liveDelegates() -> [(delegate: Delegate, retention: Retention, registration: Int64)] {
        var delegates: [(delegate: Delegate, retention: Retention, registration: Int64)] = []
        var pass = unsafe _Pass(_core)
        var keeper: AnyObject?
        while let slot = unsafe pass.next(keeping: &keeper) {
            unsafe delegates.append(
                (slot.copyOfDelegate(as: Delegate.self), slot.isStrong ? .strong : .weak, slot.registration))
        }
        return delegates
    }

    /// ``call(_:)-rlcb`` while diagnostics apply to this multicast: times each turn, then gives the trace to the
    /// handlers of `settings`, the boxed settings that the core keeps.
    @usableFromInline
    @inline(never)
    func _callTraced<Failure: Error>(
        _ body: (Delegate) throws(Failure) -> Void, settings: AnyObject
    ) throws(Failure) {
        let settings = _DiagnosticsBox.settings(settings)
        var recorder = _TraceRecorder(operation: .call)
        recorder.interval = _SignpostInterval(settings.signposts, operation: recorder.operation, label: _core.label)
        var pass = unsafe _Pass(_core)
        var keeper: AnyObject?
        do throws(Failure) {
            while let slot = unsafe pass.next(keeping: &keeper) {
                unsafe try slot.lend(as: Delegate.self) { delegate throws(Failure) in
                    unsafe recorder.begin(delegate, of: self, strong: slot.isStrong, registration: slot.registration)
                    try body(delegate)
                }
                recorder.end()
            }
        } catch {
            recorder.end()
            pass.finish()
            _deliver(recorder, threw: true, to: settings)
            throw error
        }
        pass.finish()
        _deliver(recorder, threw: false, to: settings)
    }

    /// Gives the trace that `recorder` made, and its slow turns, to the handlers of `settings`, with no lock
    /// held and the thread marked as running them.
    func _deliver(_ recorder: _TraceRecorder, threw: Bool, to settings: MulticastDiagnostics) {
        let ended = _Diagnostics.now
        recorder.interval?.end()  // see MulticastDelegate+Signposts.swift
        let sites = _core.sites(of: recorder.turns.map(\.registration))
        var turns: [MulticastTrace.Turn] = []
        turns.reserveCapacity(recorder.turns.count)
        for (turn, site) in zip(recorder.turns, sites) {
            turns.append(
                MulticastTrace.Turn(
                    delegateType: turn.delegateType, delegateID: turn.delegateID,
                    retention: turn.strong ? .strong : .weak, site: site.map(RegistrationSite.init),
                    elapsedNanoseconds: turn.ended &- turn.started))
        }
        let trace = MulticastTrace(
            _multicastType: Self.self, label: _core.label, operation: recorder.operation, turns: turns,
            elapsedNanoseconds: ended &- recorder.started, threw: threw)
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

// A snapshot entry holds a delegate and values, so it may cross threads when the delegate may.
extension MulticastDelegate.RegisteredDelegate: Sendable where Delegate: Sendable {}

/// The record of one call: which multicast, what was done, each delegate's turn in order, and the call's time.
///
/// A ``MulticastDiagnostics/traceHandler`` is given one per call. Its `description` is one line:
///
/// ```text
/// messages call, 2 delegates, 14.2 µs: ChatScreen (weak, ChatSession.swift:40) 9.8 µs, Logger (strong) 1.1 µs
/// ```
public struct MulticastTrace: Sendable {
    /// What a traced call did: ``call``, or a member of ``MulticastDelegate/inTurn`` or
    /// ``MulticastDelegate/concurrently``.
    public struct Operation: Sendable, Hashable, CustomStringConvertible {
        /// The member's name as a caller writes it: `call`, `inTurn.call`, `concurrently.map`.
        public let description: String

        init(_ description: String) {
            self.description = description
        }

        /// ``MulticastDelegate/call(_:)-rlcb``.
        public static let call = Operation("call")

        /// ``MulticastDelegate/InTurn/call(_:)``.
        public static let inTurnCall = Operation("inTurn.call")

        /// ``MulticastDelegate/InTurn/map(_:)``.
        public static let inTurnMap = Operation("inTurn.map")

        /// ``MulticastDelegate/InTurn/first(where:)``.
        public static let inTurnFirst = Operation("inTurn.first")

        /// ``MulticastDelegate/InTurn/contains(where:)``.
        public static let inTurnContains = Operation("inTurn.contains")

        /// ``MulticastDelegate/InTurn/allSatisfy(_:)``.
        public static let inTurnAllSatisfy = Operation("inTurn.allSatisfy")

        /// ``MulticastDelegate/Concurrently/call(_:)``.
        public static let concurrentlyCall = Operation("concurrently.call")

        /// ``MulticastDelegate/Concurrently/map(_:)``.
        public static let concurrentlyMap = Operation("concurrently.map")
    }

    /// One delegate's turn in a call: which delegate, how it is held, where it was added, and how long it took.
    public struct Turn: Sendable {
        /// The delegate's class.
        public let delegateType: any AnyObject.Type

        /// The delegate's identity: the same for every turn of the same object while it lives.
        public let delegateID: ObjectIdentifier

        /// How the multicast holds the delegate.
        public let retention: Retention

        /// Where the delegate was added, if diagnostics were on for the multicast or the process then.
        public let site: RegistrationSite?

        /// How long the turn took, in nanoseconds: for a concurrent call, from the child task's start to its end.
        public let elapsedNanoseconds: UInt64
    }

    /// The multicast's type, which names it when it has no label.
    let _multicastType: Any.Type

    /// The multicast's label (see ``MulticastDelegate/init(label:)``), or nil if it has none.
    public let label: String?

    /// What the call did.
    public let operation: Operation

    /// The turns, in the order the delegates were called (for a concurrent call, the order they were added in).
    public let turns: [Turn]

    /// How long the call took, in nanoseconds, from its start to its end, its turns included.
    public let elapsedNanoseconds: UInt64

    /// Whether the call ended with an error that a delegate's turn threw: the last turn.
    public let threw: Bool
}

/// The settings as the core keeps them: it stores an object of a type it does not know.
final class _DiagnosticsBox: Sendable {
    let settings: MulticastDiagnostics

    init(_ settings: MulticastDiagnostics) {
        self.settings = settings
    }

    /// The settings in `box`, which the core has from this module, boxed.
    static func settings(_ box: AnyObject) -> MulticastDiagnostics {
        unsafe unsafeDowncast(box, to: _DiagnosticsBox.self).settings
    }
}

/// What a traced call records as it goes: when it started, and each turn. Sites are looked up once it ends.
struct _TraceRecorder {
    struct Turn {
        var delegateType: any AnyObject.Type
        var delegateID: ObjectIdentifier
        var strong: Bool
        var registration: Int64
        var started: UInt64
        var ended: UInt64
    }

    let operation: MulticastTrace.Operation
    let started: UInt64
    var turns: [Turn] = []
    /// The call's interval in Instruments, if its settings have signposts; ended as the trace is delivered.
    var interval: _SignpostInterval?

    /// Starts recording a call that started at `started`, by default now.
    init(operation: MulticastTrace.Operation, started: UInt64 = _Diagnostics.now) {
        self.operation = operation
        self.started = started
    }

    /// Starts the turn of `delegate`, a delegate of `multicast`.
    mutating func begin<Delegate>(
        _ delegate: Delegate, of multicast: MulticastDelegate<Delegate>, strong: Bool, registration: Int64
    ) {
        let object = unsafe multicast._object(of: delegate, core: multicast._core)!
            .takeUnretainedValue()
        turns.append(
            Turn(
                delegateType: type(of: object), delegateID: ObjectIdentifier(object), strong: strong,
                registration: registration, started: 0, ended: 0))
        turns[turns.count - 1].started = _Diagnostics.now  // last, so that the turn's time is the body's
    }

    /// Records the turn of `delegate`, a delegate of `multicast`, that ran from `started` to `ended`.
    mutating func record<Delegate>(
        _ delegate: Delegate, of multicast: MulticastDelegate<Delegate>, strong: Bool, registration: Int64,
        started: UInt64, ended: UInt64
    ) {
        begin(delegate, of: multicast, strong: strong, registration: registration)
        turns[turns.count - 1].started = started
        turns[turns.count - 1].ended = ended
    }

    /// Ends the turn begun last, if it has not ended.
    mutating func end() {
        let now = _Diagnostics.now
        if turns.count > 0 && turns[turns.count - 1].ended == 0 { turns[turns.count - 1].ended = now }
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
