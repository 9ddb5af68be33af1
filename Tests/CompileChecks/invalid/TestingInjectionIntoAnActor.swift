// expected-error: non-Sendable type 'MulticastDelegate<any SessionObserver>' of property 'events' cannot exit actor-isolated context
// default-isolation MainActor: expected-error: non-Sendable type 'MulticastDelegate<any SessionObserver>' of property 'events' cannot exit actor-isolated context
import Multicast

@MainActor
protocol SessionObserver: AnyObject {  // not Sendable: neither is its multicast
    func sessionDidStart(user: String)
}

actor SessionModel {
    private let events: MulticastDelegate<any SessionObserver>

    init(events: MulticastDelegate<any SessionObserver>) {
        self.events = events
    }

    func signIn(_ user: String) async {
        await MainActor.run {
            events.call { $0.sessionDidStart(user: user) }
        }
    }
}
