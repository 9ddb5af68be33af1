// snippet.with: TestingTaskLocal.swift
import Multicast
import Testing

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
