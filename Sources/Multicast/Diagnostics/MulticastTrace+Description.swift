// How a trace, a turn and a duration read as text, and the ready-made settings that print them. Type names come
// from interpolating the types, when a line is made, so that tracing a call reads no type name.

extension MulticastTrace: CustomStringConvertible {
    /// The multicast's label, or, if it has none, its type: `MulticastDelegate<MessageDelegate>`.
    public var multicastName: String {
        label ?? "\(_multicastType)"
    }

    /// The trace in one line: the multicast, the operation, how many delegates and the call's time, then each
    /// turn; and a line more for each registration in ``endedBeforeTheirFirstCall``.
    ///
    /// ```text
    /// messages call, 2 delegates, 14.2 µs: ChatScreen (weak, ChatSession.swift:40) 9.8 µs, Logger (strong) 1.1 µs
    ///   gone before its first call: MessageLogger (weak, Logging.swift:12)
    /// ```
    ///
    /// A call that ended with an error says `threw` after its time. The format is for people, and may change.
    public var description: String {
        let delegates = turns.count == 1 ? "1 delegate" : "\(turns.count) delegates"
        let outcome = threw ? ", threw" : ""
        var line = "\(multicastName) \(operation), \(delegates), \(_formatNanoseconds(elapsedNanoseconds))\(outcome)"
        if turns.count > 0 { line += ": " + turns.map(\.description).joined(separator: ", ") }
        for ended in endedBeforeTheirFirstCall {
            line += "\n  gone before its first call: \(ended)"
        }
        return line
    }
}

extension MulticastTrace.Turn: CustomStringConvertible {
    /// The delegate's class, without its module.
    public var delegateTypeName: String {
        "\(delegateType)"
    }

    /// The turn in a few words: `ChatScreen (weak, ChatSession.swift:40) 9.8 µs`, or
    /// `Subscription (owned by Store, Store.swift:113) 1.1 µs`. The format is for people, and may change.
    public var description: String {
        "\(delegateTypeName) (\(_describeHolding(retention, ownerType: ownerType, site: site))) "
            + _formatNanoseconds(elapsedNanoseconds)
    }
}

extension MulticastDiagnostics {
    /// Settings that print a line per traced call, with every delegate's turn, as ``MulticastTrace`` describes
    /// it.
    ///
    /// ```swift
    /// messages.diagnostics = .printing
    /// // messages call, 2 delegates, 14.2 µs: ChatScreen (weak, ChatSession.swift:40) 9.8 µs, ...
    /// ```
    public static var printing: MulticastDiagnostics {
        printing { print($0) }
    }

    /// Settings that record where each delegate is added, and its class, and trace no call: for an app to set at
    /// launch, so that a trace turned on later knows every delegate's site.
    ///
    /// ```swift
    /// MulticastDiagnostics.processWide = .recordingSites  // at launch, in a debug build
    /// ```
    ///
    /// An add stores its site; a call, as it ends, notes which delegates it reached, under the lock of the
    /// multicast's diagnostics, so that a later trace can name a registration that ended before its first call (see
    /// ``MulticastDelegate/registrationsEndedBeforeTheirFirstCall()``).
    public static var recordingSites: MulticastDiagnostics {
        MulticastDiagnostics()
    }

    /// Settings that give `write` a line per traced call and, if `slowTurnNanoseconds` is given, a line per
    /// turn longer than that.
    ///
    /// ```swift
    /// hub.diagnostics = .printing(slowTurnNanoseconds: 16_000_000) { line in logger.debug("\(line)") }
    /// // slow delegate: ChatScreen (weak, ChatSession.swift:40) took 21.3 ms, in messages call
    /// ```
    ///
    /// - Parameters:
    ///   - slowTurnNanoseconds: The longest turn that is not slow, in nanoseconds; nil: none is.
    ///   - write: Given each line, without a line break; it runs as a handler does (see ``MulticastDiagnostics``).
    public static func printing(
        slowTurnNanoseconds: UInt64? = nil, to write: @escaping @Sendable (String) -> Void
    ) -> MulticastDiagnostics {
        MulticastDiagnostics(
            traceHandler: { trace in
                for line in trace.description.split(separator: "\n") { write(String(line)) }
            },
            slowTurnNanoseconds: slowTurnNanoseconds,
            slowTurnHandler: { turn, trace in
                let holding = _describeHolding(turn.retention, ownerType: turn.ownerType, site: turn.site)
                write(
                    "slow delegate: \(turn.delegateTypeName) (\(holding)) took "
                        + "\(_formatNanoseconds(turn.elapsedNanoseconds)), in \(trace.multicastName) \(trace.operation)"
                )
            }
        )
    }
}

/// How a registration holds its delegate, and where it was made, as every diagnostic prints it: `weak`, `strong`, or
/// `owned by Store` (whose multicast holds the delegate strongly while the owner lives), then `, Store.swift:113` if
/// the site is known.
func _describeHolding(_ retention: Retention, ownerType: (any AnyObject.Type)?, site: RegistrationSite?) -> String {
    let holding = ownerType.map { "owned by \($0)" } ?? (retention == .strong ? "strong" : "weak")
    return holding + (site.map { ", \($0)" } ?? "")
}

/// `nanoseconds` for a person: `850 ns`, `14.2 µs`, `21.3 ms`, `1.5 s`, with three significant digits at most.
func _formatNanoseconds(_ nanoseconds: UInt64) -> String {
    let (unit, scale): (String, UInt64) =
        switch nanoseconds {
        case ..<1_000: ("ns", 1)
        case ..<1_000_000: ("µs", 1_000)
        case ..<1_000_000_000: ("ms", 1_000_000)
        default: ("s", 1_000_000_000)
        }
    let whole = nanoseconds / scale
    guard scale > 1 && whole < 100 else { return "\(whole) \(unit)" }
    let tenth = nanoseconds % scale * 10 / scale
    return "\(whole).\(tenth) \(unit)"
}
