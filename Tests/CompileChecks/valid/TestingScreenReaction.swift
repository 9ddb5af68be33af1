// snippet.with: TestingInjection.swift
import Multicast
import Testing

@MainActor
@Suite struct ProfileScreenTests {
    @Test func aSignInGreetsTheUser() {
        let events = MulticastDelegate<any SessionObserver>()  // this test's own: no other test posts to it
        let screen = ProfileScreen(events: events)

        events.call { $0.sessionDidStart(user: "ada") }

        #expect(screen.title == "Hello, ada")
    }
}
