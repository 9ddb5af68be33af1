// snippet.with: DiagnosingTrace.swift
// snippet.with: DiagnosingNotCalled.swift
// snippet.hide
import Multicast

// snippet.show
func startLoggingForGood() {
    messages.add(MessageLogger(), retention: .strong)  // the multicast keeps it until it is removed
}
