// snippet.with: DiagnosingTrace.swift
// snippet.hide
import Multicast

// snippet.show
func reportSlowDelegates() {
    messages.diagnostics = MulticastDiagnostics(slowTurnNanoseconds: 16_000_000) { turn, trace in
        let site = turn.site.map { ", added at \($0)" } ?? ""
        print("slow: \(turn.delegateTypeName)\(site) took \(turn.elapsedNanoseconds) ns in \(trace.multicastName)")
    }
}
