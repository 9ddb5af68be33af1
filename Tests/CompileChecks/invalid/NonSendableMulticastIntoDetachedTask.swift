// expected-error: non-Sendable type 'MulticastDelegate<any Listener>' of property 'listeners' cannot exit main actor-isolated context
// default-isolation MainActor: expected-error: non-Sendable type 'MulticastDelegate<any Listener>' of property 'listeners' cannot exit main actor-isolated context
import Multicast

protocol Listener: AnyObject {
    func hear()
}

@MainActor
final class Screen {
    let listeners = MulticastDelegate<any Listener>()

    func notifyInBackground() {
        Task.detached { self.listeners.call { $0.hear() } }
    }
}
