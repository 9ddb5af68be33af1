// snippet.with: DiagnosingTrace.swift
// snippet.hide
import Multicast

// snippet.show
func showCallsInInstruments() {
    messages.diagnostics = .signposting(MulticastSignposts(subsystem: "com.example.chat", category: "Messages"))
}

func showCallsInInstrumentsAndPrintThem() {
    var settings = MulticastDiagnostics.printing
    settings.signposts = .default  // subsystem "Multicast", category "Calls"
    messages.diagnostics = settings
}
