// Diagnostics: where each delegate was added, a trace of every call, slow delegates, and who is still registered;
// free while off (see `_Diagnostics` in the core). What a multicast keeps for them is in Notes.swift; how a call is
// traced, in Tracing.swift; how traces and sites read as text, in MulticastTrace+Description.swift.

import _MulticastCore

/// Where a delegate was added: the file and line of the `add` call that registered it.
///
/// A multicast records the site of each `add` while diagnostics are on for it or for the process (see
/// ``MulticastDiagnostics``); traces, ``MulticastDelegate/registeredDelegates()`` and `debugPrint` show it.
// Not `SourceLocation`, which would clash with Swift Testing's in a test file that imports both.
public struct RegistrationSite: Sendable, Hashable, CustomStringConvertible {
    let _fileID: StaticString
    let _line: UInt

    init(fileID: StaticString, line: UInt) {
        _fileID = fileID
        _line = line
    }

    /// The `#fileID` of the `add` call: the module and the file's name, `Chat/ChatSession.swift`.
    public var fileID: String {
        _fileID.description
    }

    /// The line of the `add` call.
    public var line: UInt {
        _line
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
/// Diagnostics are off by default: then a call and an add each read one word more, and record nothing. While some
/// multicast has settings, each call and add of the others also looks up, under the locks of its diagnostics and
/// of the process-wide settings, whether settings apply to it (see <doc:DiagnosingAMulticast> for the costs).
///
/// While settings apply to a multicast, from its own ``MulticastDelegate/diagnostics`` or else from
/// ``processWide``:
/// - each `add` records where it was made (its ``RegistrationSite``);
/// - each call (``MulticastDelegate/call(_:)-rlcb``, and the members of ``MulticastDelegate/inTurn`` and
///   ``MulticastDelegate/concurrently``) times every delegate's turn and, once it has ended, gives a
///   ``MulticastTrace`` to ``traceHandler``, and each turn longer than ``slowTurnNanoseconds`` to
///   ``slowTurnHandler``. Iterating the multicast, and its synchronous `map`, `first` and `contains`, is not
///   traced. Settings with no handler and no ``signposts`` trace no call: they record sites, and each call
///   notes which delegates it reached (``recordingSites``).
///
/// The handlers run on the thread that made the call, after the call, with no lock held: they may use any
/// multicast, this one included. A call made from inside a handler is not traced. A traced call allocates its
/// trace. Durations are nanoseconds of a monotonic clock (Swift's `Duration` needs macOS 13 and iOS 16).
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
    /// It may be set and read from any thread. A call that starts after the setting, in the order that the
    /// thread's own code or any synchronization gives, sees it.
    public static var processWide: MulticastDiagnostics? {
        get { _ProcessWideSettings.shared.settings?.settings }
        set { _ProcessWideSettings.shared.settings = newValue.map(_DiagnosticsBox.init) }
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
        get { _notes.settings?.settings }
        set { _notes.settings = newValue.map(_DiagnosticsBox.init) }
    }

    /// A registered delegate, how it is held, its owner's class if it has one, and where it was added.
    public struct RegisteredDelegate {
        /// The delegate: a strong reference, which the snapshot keeps until it is let go of.
        public let delegate: Delegate

        /// How the multicast holds the delegate: ``Retention/strong`` for a delegate added with
        /// ``MulticastDelegate/add(_:ownedBy:file:line:)`` too, which ``ownerType`` tells apart.
        public let retention: Retention

        /// The owner's class, for a registration made with ``MulticastDelegate/add(_:ownedBy:file:line:)``, which the
        /// multicast keeps while its owner lives; nil for a weak or strong registration, whose delegate is its own
        /// owner.
        public let ownerType: (any AnyObject.Type)?

        /// Where the delegate was added, if diagnostics were on for the multicast or the process then.
        public let site: RegistrationSite?
    }

    /// The live delegates, in the order they are called, each with how it is held, its owner's class if it has one,
    /// and where it was added: for a leak hunt, the delegates that the multicast alone keeps alive, and whoever
    /// added them.
    ///
    /// ```swift
    /// for registered in hub.registeredDelegates() where registered.retention == .strong && registered.ownerType == nil {
    ///     print(registered.delegate, registered.site.map { "added at \($0)" } ?? "")  // kept until removed
    /// }
    /// ```
    ///
    /// - Returns: A snapshot that holds every delegate in it strongly: let go of it when done.
    /// - Complexity: O(*n*): one pass, and the lock of the multicast's diagnostics twice, around the pass, to read
    ///   the sites.
    public func registeredDelegates() -> [RegisteredDelegate] {
        // The reading begins before the pass, so that no record the pass may need is dropped before it is read.
        let reading = _NotesReading(_notes)
        var delegates: [RegisteredDelegate] = []
        var registrations: [Int64] = []
        do {
            var pass = unsafe _Pass(_core)
            var keeper: AnyObject?
            while let slot = unsafe pass.next(keeping: &keeper) {
                let ownerType: (any AnyObject.Type)? =
                    unsafe slot.holding == .owned ? type(of: slot.owner.takeUnretainedValue()) : nil
                unsafe delegates.append(
                    RegisteredDelegate(
                        delegate: slot.copyOfDelegate(as: Delegate.self), retention: slot.isStrong ? .strong : .weak,
                        ownerType: ownerType, site: nil))
                unsafe registrations.append(slot.registration)
            }
        }
        return zip(delegates, reading.end(lookingUp: registrations).records).map { live, record in
            RegisteredDelegate(
                delegate: live.delegate, retention: live.retention, ownerType: live.ownerType, site: record?.site)
        }
    }

    /// The registrations of this multicast that ended before the multicast ever called their delegate, oldest
    /// first: each weak delegate, and each owner of an owned one, that was deallocated before its delegate's first
    /// call. For a delegate that was added and never called: the one that nothing else kept alive.
    ///
    /// ```swift
    /// for ended in messages.registrationsEndedBeforeTheirFirstCall() {
    ///     print("gone before its first call:", ended)  // MessageLogger (weak, Logging.swift:12)
    /// }
    /// ```
    ///
    /// A registration is listed if it was made while settings applied to this multicast (its own, or the process's:
    /// ``MulticastDiagnostics/recordingSites`` is enough), and diagnostics have applied to every call of the
    /// multicast since then (a call made while they were off may have called it, unseen). It is listed once found
    /// gone, by whatever reached its slot first: a call, an iteration, `count`, the search that an add makes before
    /// the list of delegates grows, or this method, which looks. A registration that was removed is not listed,
    /// nor one whose delegate was called. Iterating the multicast, and its synchronous `map`, `first` and
    /// `contains`, are not calls: a delegate reached only that way is listed. The list keeps the latest
    /// ``UncalledRegistration/kept``.
    ///
    /// - Complexity: O(*n*): one pass, and the lock of the multicast's diagnostics twice, around the pass.
    public func registrationsEndedBeforeTheirFirstCall() -> [UncalledRegistration] {
        let reading = _NotesReading(_notes)
        do {
            defer { extendLifetime(self) }  // the pass holds the core unretained: keep it alive to the pass's end
            var pass = unsafe _Pass(_core)
            var keeper: AnyObject?
            var dead = _DeadRegistrations()
            while unsafe pass.next(keeping: &keeper, observing: &dead) != nil {}
            _ = reading.end(lookingUp: [], ended: dead.registrations)
        }
        return _notes.uncalled
    }
}

/// The registrations that a pass found ended with their owners.
struct _DeadRegistrations: _PassObserver {
    var registrations: [Int64] = []

    mutating func passSkippedDeadRegistration(_ registration: Int64) {
        registrations.append(registration)
    }
}

/// A registration that ended before the multicast ever called its delegate: a weak delegate, or the owner of an
/// owned one, that was deallocated first. What was recorded of it: the delegate's class, the owner's, and where
/// it was added.
///
/// A trace names those its call found gone (``MulticastTrace/endedBeforeTheirFirstCall``), and
/// ``MulticastDelegate/registrationsEndedBeforeTheirFirstCall()`` lists them.
// Its members are named as `MulticastTrace.Turn`'s, so that code reads one as it reads a turn.
public struct UncalledRegistration: Sendable, CustomStringConvertible {
    /// The delegate's class.
    public let delegateType: any AnyObject.Type

    /// The owner's class, for a registration made with ``MulticastDelegate/add(_:ownedBy:file:line:)``; nil for
    /// a weak delegate, which is its own owner.
    public let ownerType: (any AnyObject.Type)?

    /// Where the delegate was added.
    public let site: RegistrationSite

    /// How many a multicast keeps for ``MulticastDelegate/registrationsEndedBeforeTheirFirstCall()``: the latest.
    public static let kept = 256

    /// The delegate's class, without its module.
    public var delegateTypeName: String {
        "\(delegateType)"
    }

    /// The owner's class, without its module; nil for a weak delegate.
    public var ownerTypeName: String? {
        ownerType.map { "\($0)" }
    }

    /// The registration in a few words: `MessageLogger (weak, Logging.swift:12)`, or
    /// `Subscription (owned by Store, Store.swift:113)`. The format is for people, and may change.
    public var description: String {
        "\(delegateTypeName) (\(_describeHolding(.weak, ownerType: ownerType, site: site)))"
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

        /// How the multicast holds the delegate: ``Retention/strong`` for a delegate added with
        /// ``MulticastDelegate/add(_:ownedBy:file:line:)`` too, which ``ownerType`` tells apart.
        public let retention: Retention

        /// The owner's class, for a registration made with ``MulticastDelegate/add(_:ownedBy:file:line:)``; nil for
        /// a weak or strong registration, whose delegate is its own owner.
        public let ownerType: (any AnyObject.Type)?

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

    /// The registrations found ended before their first call that no earlier trace named, whether this call found
    /// them gone or something before it did since the last trace (an untraced call, an iteration, `count`, an add's
    /// search): those that ``MulticastDelegate/registrationsEndedBeforeTheirFirstCall()`` lists, on its conditions.
    public let endedBeforeTheirFirstCall: [UncalledRegistration]

    /// How long the call took, in nanoseconds, from its start to its end, its turns included.
    public let elapsedNanoseconds: UInt64

    /// Whether the call ended with an error that a delegate's turn threw: the last turn.
    public let threw: Bool
}
