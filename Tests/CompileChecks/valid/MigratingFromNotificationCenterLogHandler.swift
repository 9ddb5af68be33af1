// snippet.hide
import Multicast

// snippet.show
func logEveryEvent(to log: @escaping @Sendable (String) -> Void) {
    MulticastDiagnostics.processWide = MulticastDiagnostics(traceHandler: { trace in
        log("\(trace.multicastName) \(trace.operation): \(trace.turns.map(\.delegateTypeName))")
    })
}
