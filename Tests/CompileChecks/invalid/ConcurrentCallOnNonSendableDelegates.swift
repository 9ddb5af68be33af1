// expected-error: type 'any Listener' does not conform to the 'Sendable' protocol
// default-isolation MainActor: expected-error: type 'any Listener' does not conform to the 'Sendable' protocol
import Multicast

protocol Listener: AnyObject {
    func hear() async
}

func notify(_ listeners: MulticastDelegate<any Listener>) async {
    await listeners.concurrently.call { await $0.hear() }
}
