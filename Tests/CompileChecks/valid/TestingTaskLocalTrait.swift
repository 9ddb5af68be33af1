import Multicast
import Testing

// snippet.hide
@MainActor
protocol SessionObserver: AnyObject, Sendable {  // Sendable: a task-local value must be
    func sessionDidStart(user: String)
}

enum AppEvents {
    /// The app's one multicast, unless a test has scoped one of its own.
    @TaskLocal static var session = MulticastDelegate<any SessionObserver>()
}

@MainActor
final class ProfileScreen: SessionObserver {
    private(set) var title = "Signed out"

    init() {
        AppEvents.session.add(self)
    }

    func sessionDidStart(user: String) { title = "Hello, \(user)" }
}

actor SessionModel {
    func signIn(_ user: String) async {
        await MainActor.run {
            AppEvents.session.call { $0.sessionDidStart(user: user) }
        }
    }
}

// snippet.show
/// Gives each test a multicast of its own as `AppEvents.session`.
struct FreshAppEvents: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }  // on a suite: a multicast for each test, not one for the suite

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await AppEvents.$session.withValue(MulticastDelegate()) {
            try await function()
        }
    }
}

extension Trait where Self == FreshAppEvents {
    static var freshAppEvents: Self { Self() }
}

@Suite(.freshAppEvents)
struct AppTests {
    @MainActor
    @Test func aSignInGreetsTheUser() async {
        let screen = ProfileScreen()  // adds itself to this test's own AppEvents.session
        await SessionModel().signIn("ada")
        #expect(screen.title == "Hello, ada")
    }
}
