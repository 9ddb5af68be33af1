// Instruments: each traced call an interval of `OSSignposter`, on Apple's platforms. The signposts are a value in
// the settings, not a flag, so that the subsystem and category travel with them and the `OSSignposter` is made
// once; they exist on every platform, so that a client's settings need no `#if`. The `os` branches are type-checked
// by Scripts/check-apple-platforms.sh against a stand-in for the few `os` APIs used here (Tests/PlatformChecks/os);
// nothing in this repository builds them against Apple's SDK or runs them.

#if canImport(os)
import os
#endif

/// Where a multicast's calls go in Instruments: the subsystem and category of their signposts.
///
/// ```swift
/// messages.diagnostics = .signposting  // subsystem "Multicast", category "Calls"
/// hub.diagnostics = .signposting(MulticastSignposts(subsystem: "com.example.app", category: "Events"))
/// ```
///
/// While settings with signposts apply to a multicast (``MulticastDiagnostics/signposts``), each of its traced
/// calls is an interval named `call`, from its start to its end, whose message is the multicast's label (or
/// `MulticastDelegate`, without one) and the operation: `messages call`. Instruments shows the intervals in its
/// os_signpost instrument, under the subsystem and category; a call made while Instruments does not record them
/// records nothing. The intervals come from `OSSignposter`, which every Apple platform the package supports has;
/// where there is no `os` module (Linux, Windows, Android, WebAssembly), signposts record nothing, and the other
/// settings still apply.
public struct MulticastSignposts: Sendable {
    /// The subsystem of the signposts, as Instruments filters them: by convention, the app's bundle identifier.
    public let subsystem: String

    /// The category of the signposts, within their subsystem.
    public let category: String

    /// What makes the intervals: made once, here, so that a call does not open a log.
    let _signposter: _Signposter

    /// Creates signposts in `subsystem` and `category`.
    ///
    /// - Parameters:
    ///   - subsystem: The subsystem, such as the app's bundle identifier `com.example.app`.
    ///   - category: The category within the subsystem, such as `Events`.
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
        #if canImport(os)
        _signposter = _OSSignposter(subsystem: subsystem, category: category)
        #else
        _signposter = _Signposter()
        #endif
    }

    /// Signposts in subsystem `Multicast`, category `Calls`.
    public static let `default` = MulticastSignposts(subsystem: "Multicast", category: "Calls")
}

extension MulticastDiagnostics {
    /// Settings that make each call an interval in Instruments, in subsystem `Multicast`, category `Calls`, and
    /// report nothing else.
    ///
    /// ```swift
    /// messages.diagnostics = .signposting
    /// ```
    public static var signposting: MulticastDiagnostics {
        signposting(.default)
    }

    /// Settings that make each call an interval in Instruments, with `signposts`' subsystem and category, and
    /// report nothing else.
    ///
    /// ```swift
    /// hub.diagnostics = .signposting(MulticastSignposts(subsystem: "com.example.app", category: "Events"))
    /// ```
    ///
    /// To have the intervals and a trace, set ``signposts`` on settings that have handlers.
    ///
    /// - Parameter signposts: Where the intervals go.
    public static func signposting(_ signposts: MulticastSignposts) -> MulticastDiagnostics {
        var settings = MulticastDiagnostics()
        settings.signposts = signposts
        return settings
    }
}

/// One traced call's interval: begun when the call starts, ended by ``end()`` when it ends.
struct _SignpostInterval {
    private let signposter: _Signposter
    private let state: AnyObject

    /// Begins the interval of a call of `operation` on the multicast `label` names (read only if the interval is
    /// recorded), or returns nil if `signposts` is nil, the platform has no `OSSignposter`, or Instruments is not
    /// recording them.
    init?(_ signposts: MulticastSignposts?, operation: MulticastTrace.Operation, label: @autoclosure () -> String?) {
        guard let signposter = signposts?._signposter,
            let state = signposter.begin({ "\(label() ?? "MulticastDelegate") \(operation)" })
        else { return nil }
        self.signposter = signposter
        self.state = state
    }

    /// Ends the interval.
    func end() {
        signposter.end(state)
    }
}

/// Makes intervals; this base makes none, for platforms without `OSSignposter`.
///
/// Unchecked: the base has no state, and ``_OSSignposter`` only a constant `OSSignposter`, which wraps a log
/// handle that the system lets every thread use.
class _Signposter: @unchecked Sendable {
    /// Begins an interval whose message is `message()`, asked for only if the interval is recorded; returns its
    /// state, or nil if none is recorded.
    func begin(_ message: () -> String) -> AnyObject? {
        nil
    }

    /// Ends the interval whose state `begin` returned.
    func end(_ state: AnyObject) {}
}

#if canImport(os)
/// Makes each interval with an `OSSignposter`.
final class _OSSignposter: _Signposter, @unchecked Sendable {
    private let signposter: OSSignposter

    init(subsystem: String, category: String) {
        signposter = OSSignposter(subsystem: subsystem, category: category)
    }

    override func begin(_ message: () -> String) -> AnyObject? {
        guard signposter.isEnabled else { return nil }
        let message = message()
        // A signpost ID per call: calls overlap, on several threads or nested in a delegate's turn.
        return signposter.beginInterval("call", id: signposter.makeSignpostID(), "\(message, privacy: .public)")
    }

    override func end(_ state: AnyObject) {
        signposter.endInterval("call", unsafeDowncast(state, to: OSSignpostIntervalState.self))
    }
}
#endif
