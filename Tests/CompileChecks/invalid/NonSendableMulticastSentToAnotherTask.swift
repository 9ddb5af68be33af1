// expected-error: passing closure as a 'sending' parameter risks causing data races between main actor-isolated code
// default-isolation MainActor: expected-error: call to main actor-isolated instance method 'hear\(\)' in a synchronous nonisolated context
import Multicast

protocol Listener: AnyObject {
    func hear()
}

@MainActor
func notifyInBackground(_ listeners: MulticastDelegate<any Listener>) {
    Task.detached { listeners.call { $0.hear() } }  // `listeners` stays reachable from the main actor
}
