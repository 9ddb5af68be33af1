// snippet.with: DiagnosingTrace.swift
// snippet.hide
import Multicast

final class MessageLogger: MessageDelegate {
    func didReceive(_ text: String) { print(text) }
}

// snippet.show
func startLogging() {
    let logger = MessageLogger()
    messages.add(logger)  // weak: nothing else holds the logger, so it is gone by the next call
}
