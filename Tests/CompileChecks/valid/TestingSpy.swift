// snippet.with: TestingInjection.swift
import Multicast
import Testing

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
