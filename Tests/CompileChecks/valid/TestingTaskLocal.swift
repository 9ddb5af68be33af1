import Multicast

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
