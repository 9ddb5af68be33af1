// snippet.with: TestingInjection.swift
import Multicast
import Testing

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
