// snippet.hide
import Multicast

protocol MessageDelegate: AnyObject, Sendable {
    func didReceive(_ text: String)
}

// snippet.show
let messages = MulticastDelegate<any MessageDelegate>(label: "messages")

func traceMessages() {
    messages.diagnostics = .printing  // a line per call of this multicast
}
