// expected-error: capture of 'listeners' with non-Sendable type 'MulticastDelegate<any Listener>' in a '@Sendable' closure
// default-isolation MainActor: expected-error: capture of 'listeners' with non-Sendable type 'MulticastDelegate<any Listener>' in a '@Sendable' closure
import Multicast

protocol Listener: AnyObject {
    func hear()
}

func schedule(_ listeners: MulticastDelegate<any Listener>) -> @Sendable () -> Void {
    { listeners.call { $0.hear() } }
}
