import Multicast

@MainActor
protocol SessionObserver: AnyObject, Sendable {  // Sendable: the model off the main actor holds the multicast
    func sessionDidStart(user: String)
}

enum AppEvents {
    nonisolated static let session = MulticastDelegate<any SessionObserver>()
}

@MainActor
final class ProfileScreen: SessionObserver {
    private(set) var title = "Signed out"

    init(events: MulticastDelegate<any SessionObserver> = AppEvents.session) {  // the app passes nothing
        events.add(self)
    }

    func sessionDidStart(user: String) { title = "Hello, \(user)" }
}

actor SessionModel {
    private let events: MulticastDelegate<any SessionObserver>

    init(events: MulticastDelegate<any SessionObserver> = AppEvents.session) {
        self.events = events
    }

    func signIn(_ user: String) async {
        await MainActor.run {
            events.call { $0.sessionDidStart(user: user) }
        }
    }
}
