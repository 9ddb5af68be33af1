import Multicast
import MulticastChecks
import Testing

// The patterns of the article on testing, run the way Swift Testing runs tests: in parallel. Each test below is
// parameterized, and its cases run at once: each makes a screen, waits until every case has made one, signs in
// a user of its own from a model off the main actor, waits until every case has signed in, and then checks
// what its screen heard. A screen that could hear another case's sign-in has heard it by then.

/// What the app tells its screens when someone signs in: heard on the main actor, posted from anywhere.
@MainActor
protocol SessionObserver: AnyObject, Sendable {
    func sessionDidStart(user: String)
}

/// The app's hub: one multicast for the whole app, and the one its code reads, which a test may scope.
enum SessionEvents {
    /// The app's one multicast.
    nonisolated static let shared = MulticastDelegate<any SessionObserver>()

    /// The multicast the app's code reads: `shared`, unless a test has scoped a multicast of its own.
    @TaskLocal static var current = shared
}

/// A screen that greets whoever signs in; its multicast is injected, with the app's as the default.
@MainActor
final class WelcomeBanner: SessionObserver {
    private(set) var greeted: [String] = []

    init(events: MulticastDelegate<any SessionObserver> = SessionEvents.current) {
        events.add(self)
    }

    func sessionDidStart(user: String) {
        greeted.append(user)
    }
}

/// A model off the main actor that posts to the screens.
actor SessionModel {
    private let events: MulticastDelegate<any SessionObserver>

    init(events: MulticastDelegate<any SessionObserver> = SessionEvents.current) {
        self.events = events
    }

    func signIn(_ user: String) async {
        await MainActor.run {
            events.call { $0.sessionDidStart(user: user) }
        }
    }
}

/// Gives each test, and each case of a parameterized test, a multicast of its own as `SessionEvents.current`.
struct FreshSessionEvents: TestTrait, SuiteTrait, TestScoping {
    /// On a suite, a multicast for each of its tests, not one for the whole suite.
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await SessionEvents.$current.withValue(MulticastDelegate()) {
            try await function()
        }
    }
}

extension Trait where Self == FreshSessionEvents {
    /// A multicast of its own as `SessionEvents.current` for each test.
    static var freshSessionEvents: Self { Self() }
}

/// Where the cases of one test meet: once every case has made its screen, and once every case has signed in.
final class Meeting: Sendable {
    let screensMade: Countdown
    let signedIn: Countdown

    init(cases: Int) {
        screensMade = Countdown(count: cases)
        signedIn = Countdown(count: cases)
    }
}

@MainActor
@Suite struct TestIsolationTests {
    nonisolated static let cases = 0..<8
    nonisolated static let users = Set(cases.map(user))
    nonisolated static let meetings = (
        injected: Meeting(cases: cases.count),
        taskLocal: Meeting(cases: cases.count),
        global: Meeting(cases: cases.count)
    )

    @Test(arguments: cases)
    func aMulticastInjectedIntoEachTestKeepsItsEventsToItself(case number: Int) async {
        let events = MulticastDelegate<any SessionObserver>()
        let greeted = await signIn(
            case: number, at: Self.meetings.injected, banner: WelcomeBanner(events: events),
            model: SessionModel(events: events))
        #expect(greeted == [Self.user(number)])
    }

    @Test(.freshSessionEvents, arguments: cases)
    func aTaskLocalMulticastThatATraitScopesKeepsEachTestsEventsToItself(case number: Int) async {
        let greeted = await signIn(
            case: number, at: Self.meetings.taskLocal, banner: WelcomeBanner(), model: SessionModel())
        #expect(greeted == [Self.user(number)])
    }

    /// What the two patterns above prevent: with the app's one multicast, every test's screen hears every test.
    @Test(arguments: cases)
    func theAppsOneMulticastShowsEachTestTheEventsOfEveryOther(case number: Int) async {
        let greeted = await signIn(
            case: number, at: Self.meetings.global, banner: WelcomeBanner(), model: SessionModel())
        #expect(greeted?.count == Self.cases.count)
        #expect(Set(greeted ?? []) == Self.users)
    }

    /// Signs in case `number`'s user while the other cases sign in theirs, and returns what `banner` heard by
    /// the time every case has signed in; nil, with an issue recorded, if the cases did not run at once.
    func signIn(case number: Int, at meeting: Meeting, banner: WelcomeBanner, model: SessionModel) async -> [String]? {
        guard await meeting.screensMade.arriveAndWait(within: 300) else {
            Issue.record("the \(Self.cases.count) cases did not run at once: run the tests in parallel")
            return nil
        }
        await model.signIn(Self.user(number))
        guard await meeting.signedIn.arriveAndWait(within: 300) else {
            Issue.record("the \(Self.cases.count) cases did not all sign in")
            return nil
        }
        return banner.greeted
    }

    nonisolated static func user(_ number: Int) -> String {
        "user \(number)"
    }
}
