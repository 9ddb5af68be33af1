import Multicast
import TerminalKit

/// `/trace`: the multicast's diagnostics, shown with each message.
///
/// While the trace is on, every message that reaches the screens is followed by a line for the call and a line
/// per screen called, in the order they were called:
///
/// ```text
/// trace: messages call, 3 screens, 41.2 µs
/// trace:   chats#2, added at ChatSession.swift:137, 12.3 µs
/// trace:   banner#1, added at ChatSession.swift:137, 2.0 µs
/// ```
///
/// A multicast records where a delegate was added only while diagnostics apply to it: the session records the
/// sites from its start (`.recordingSites`), so that a screen opened before `/trace` shows its site too.
extension ChatSession {
    /// Turns the trace on, or off if it is on, and says which.
    func toggleTrace() {
        guard messages.diagnostics?.traceHandler == nil else {
            messages.diagnostics = .recordingSites
            console.line("trace off")
            return
        }
        // The handler runs on the sending thread once the call has ended, with no lock held, so it may use the
        // multicast it traces: it asks the screens their names. Weakly: the multicast keeps its settings.
        messages.diagnostics = MulticastDiagnostics(traceHandler: { [console, weak messages] trace in
            guard let messages else { return }
            for line in Self.traceLines(trace, names: messages.map { (ObjectIdentifier($0), $0.name) }) {
                console.line(line, style: .dim)
            }
        })
        console.line("trace on: each message lists the screens called, where each was added, and its time")
    }

    /// The lines that show `trace`: one for the call, then one per turn.
    ///
    /// - Parameters:
    ///   - trace: A call of the session's multicast.
    ///   - names: The name of each screen, by its identity; a screen not in it goes by its type.
    static func traceLines(_ trace: MulticastTrace, names: [(ObjectIdentifier, String)]) -> [String] {
        let names = Dictionary(names, uniquingKeysWith: { first, _ in first })
        let screens = trace.turns.count == 1 ? "1 screen" : "\(trace.turns.count) screens"
        let call = "\(trace.multicastName) \(trace.operation), \(screens), \(duration(trace.elapsedNanoseconds))"
        var lines = ["trace: " + call]
        for turn in trace.turns {
            let name = names[turn.delegateID] ?? turn.delegateTypeName
            let site = turn.site.map { "added at \($0)" } ?? "site not recorded"
            lines.append("trace:   \(name), \(site), \(duration(turn.elapsedNanoseconds))")
        }
        return lines
    }

    /// A time for a person: `850 ns`, `12.3 µs`, `4.1 ms`.
    static func duration(_ nanoseconds: UInt64) -> String {
        switch nanoseconds {
        case ..<1_000: "\(nanoseconds) ns"
        case ..<1_000_000: tenths(nanoseconds, per: 1_000) + " µs"
        default: tenths(nanoseconds, per: 1_000_000) + " ms"
        }
    }

    /// `value / unit`, with one decimal.
    private static func tenths(_ value: UInt64, per unit: UInt64) -> String {
        let tenths = value * 10 / unit
        return "\(tenths / 10).\(tenths % 10)"
    }
}
