import Multicast
import Testing

// snippet.hide
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

// snippet.show
/// Records what it hears, for the tests of the code that posts.
@MainActor
final class SessionSpy: SessionObserver {
    private(set) var users: [String] = []

    func sessionDidStart(user: String) { users.append(user) }
}

@Suite struct SessionModelTests {
    @MainActor
    @Test func signingInTellsTheScreensOnce() async {
        let events = MulticastDelegate<any SessionObserver>()
        let spy = SessionSpy()
        events.add(spy)

        await SessionModel(events: events).signIn("ada")

        #expect(spy.users == ["ada"])
    }
}
