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
@Suite(.serialized)  // one test at a time, its own and those of the suites inside it
struct AppEventsTests {
    @Suite struct ProfileScreenTests {
        @MainActor
        @Test func aSignInGreetsTheUser() async {
            let screen = ProfileScreen()  // adds itself to the app's one AppEvents.session
            await SessionModel().signIn("ada")
            #expect(screen.title == "Hello, ada")
        }
    }

    @Suite struct SessionModelTests {
        // ...
    }
}
