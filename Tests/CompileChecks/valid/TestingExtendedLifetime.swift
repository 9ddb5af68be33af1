// snippet.with: TestingInjection.swift
import Multicast
import Testing

/// Counts the sign-ins that the screens of a test heard, however many screens there are.
@MainActor
final class SignInCount {
    var value = 0
}

@MainActor
final class CountingScreen: SessionObserver {
    let count: SignInCount
    init(_ count: SignInCount) { self.count = count }

    func sessionDidStart(user: String) { count.value += 1 }
}

@Suite struct SignInCountTests {
    @MainActor
    @Test func everyScreenHearsTheSignIn() async {
        let events = MulticastDelegate<any SessionObserver>()
        let count = SignInCount()
        let screens = [CountingScreen(count), CountingScreen(count)]
        defer { extendLifetime(screens) }  // without it, a release build may free the screens after the adds
        for screen in screens { events.add(screen) }

        await SessionModel(events: events).signIn("ada")

        #expect(count.value == 2)
    }
}
