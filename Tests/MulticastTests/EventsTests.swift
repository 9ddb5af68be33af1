import Multicast
import MulticastChecks
import Testing

/// Screens' events, heard on the main actor.
@MainActor
protocol SignInObserver: AnyObject {
    func didSignIn(_ user: String)
    func didSignOutEveryone()
}

/// Forwards sign-ins into a stream, and ends it when everyone signs out; records what each yield did.
@MainActor
final class SignInForwarder: SignInObserver {
    let continuation: AsyncStream<String>.Continuation
    private(set) var yields: [AsyncStream<String>.Continuation.YieldResult] = []

    init(_ continuation: AsyncStream<String>.Continuation) {
        self.continuation = continuation
    }

    func didSignIn(_ user: String) { yields.append(continuation.yield(user)) }
    func didSignOutEveryone() { continuation.finish() }
}

extension AsyncStream.Continuation.YieldResult {
    /// What the yield did, in words a test compares.
    var outcome: String {
        switch self {
        case .enqueued(let remaining): "enqueued \(remaining)"
        case .dropped(let element): "dropped \(element)"
        case .terminated: "terminated"
        @unknown default: "unknown"
        }
    }
}

/// Forwards sign-ins to a continuation that counts what the buffering policy drops.
@MainActor
final class CountedSignIns: SignInObserver {
    let continuation: EventContinuation<String>

    init(_ continuation: EventContinuation<String>) {
        self.continuation = continuation
    }

    func didSignIn(_ user: String) { continuation.yield(user) }
    func didSignOutEveryone() { continuation.finish() }
}

/// Events that any thread may call, heard by `Sendable` delegates.
protocol TickObserver: AnyObject, Sendable {
    func tick(thread: Int, count: Int)
}

final class TickForwarder: TickObserver {
    let continuation: AsyncStream<Tick>.Continuation

    init(_ continuation: AsyncStream<Tick>.Continuation) {
        self.continuation = continuation
    }

    func tick(thread: Int, count: Int) { continuation.yield(Tick(thread: thread, count: count)) }
}

final class CountedTicks: TickObserver {
    let continuation: EventContinuation<Tick>

    init(_ continuation: EventContinuation<Tick>) {
        self.continuation = continuation
    }

    func tick(thread: Int, count: Int) { continuation.yield(Tick(thread: thread, count: count)) }
}

struct Tick: Sendable, Equatable {
    let thread: Int
    let count: Int
}

/// Screens' events posted from off the main actor: the protocol is `Sendable`, so its multicast is too.
@MainActor
protocol ProgressObserver: AnyObject, Sendable {
    func progressDidChange(_ percent: Int)
    func progressDidEnd()
}

@MainActor
final class ProgressForwarder: ProgressObserver {
    let continuation: AsyncStream<Int>.Continuation

    init(_ continuation: AsyncStream<Int>.Continuation) {
        self.continuation = continuation
    }

    func progressDidChange(_ percent: Int) { continuation.yield(percent) }
    func progressDidEnd() { continuation.finish() }
}

/// A model off the main actor that tells main-actor screens how far it has come.
actor Uploader {
    let progress: MulticastDelegate<any ProgressObserver>

    init(progress: MulticastDelegate<any ProgressObserver>) {
        self.progress = progress
    }

    func upload() async {
        for percent in stride(from: 0, through: 100, by: 25) {
            await MainActor.run { progress.call { $0.progressDidChange(percent) } }
        }
        await MainActor.run { progress.call { $0.progressDidEnd() } }
    }
}

@MainActor
@Suite struct EventsTests {
    let signIns = MulticastDelegate<any SignInObserver>()

    @Test func eventsCalledBeforeAndDuringTheIterationArriveInTheOrderTheyWereCalled() async {
        let events = signIns.events(bufferingPolicy: .unbounded, SignInForwarder.init)
        signIns.call { $0.didSignIn("ada") }  // before the iteration starts
        signIns.call { $0.didSignIn("grace") }
        let later = Task {
            signIns.call { $0.didSignIn("alan") }  // while the iteration waits
            signIns.call { $0.didSignOutEveryone() }
        }
        #expect(await read(events) == ["ada", "grace", "alan"])
        await later.value
    }

    @Test func theSequenceKeepsTheForwarderAliveAndTheMulticastHoldsItWeakly() {
        weak var forwarder: SignInForwarder?
        do {
            let events = signIns.events(bufferingPolicy: .unbounded) { continuation in
                let made = SignInForwarder(continuation)
                forwarder = made
                return made
            }
            #expect(forwarder != nil)
            #expect(signIns.count == 1)
            #expect(signIns.description.hasSuffix("SignInForwarder (weak)]"))
            _ = events
        }
        #expect(forwarder == nil)
        #expect(signIns.isEmpty)
    }

    @Test func aForwarderThatFinishesTheSequenceIsRemovedWhenTheIterationEnds() async {
        let events = signIns.events(bufferingPolicy: .unbounded, SignInForwarder.init)
        signIns.call { $0.didSignIn("ada") }
        signIns.call { $0.didSignOutEveryone() }
        #expect(await read(events) == ["ada"])
        #expect(signIns.isEmpty)  // while `events` is still there
        _ = events
    }

    @Test func breakingOutOfTheLoopRemovesAndReleasesTheForwarder() async {
        weak var forwarder: SignInForwarder?
        let readFirst = Task { () -> String? in
            let events = signIns.events(bufferingPolicy: .unbounded) { continuation in
                let made = SignInForwarder(continuation)
                forwarder = made
                return made
            }
            signIns.call { $0.didSignIn("ada") }
            signIns.call { $0.didSignIn("grace") }
            for await user in events {
                return user  // leaves the loop: the iterator and the sequence are dropped
            }
            return nil
        }
        #expect(await readFirst.value == "ada")
        #expect(forwarder == nil)
        #expect(signIns.isEmpty)
    }

    @Test func aForwarderKeptAliveElsewhereIsRemovedWhenTheSequenceIsDropped() {
        var keptElsewhere: SignInForwarder?
        do {
            let events = signIns.events(bufferingPolicy: .unbounded) { continuation in
                let made = SignInForwarder(continuation)
                keptElsewhere = made
                return made
            }
            #expect(signIns.count == 1)
            _ = events
        }
        #expect(keptElsewhere != nil)
        #expect(signIns.isEmpty)
    }

    @Test func cancellingTheIteratingTaskEndsTheSequenceAndRemovesTheForwarder() async {
        let firstArrived = Gate()
        let received = Received<String>()
        let events = signIns.events(bufferingPolicy: .unbounded, SignInForwarder.init)
        let consumer = Task {
            for await user in events {
                received.append(user)
                firstArrived.open()
            }
            received.stop()
        }
        signIns.call { $0.didSignIn("ada") }
        await firstArrived.wait()
        consumer.cancel()
        #expect(await eventually { received.hasStopped }, "the cancelled task's loop did not end")
        #expect(received.elements == ["ada"])
        #expect(signIns.isEmpty)  // while `events` is still there
        _ = events
    }

    @Test func aPolicyThatKeepsTheNewestDropsTheOldestAndTheForwarderSeesWhatItDropped() async {
        let (read, yields) = await signInFourUsersBeforeReading(.bufferingNewest(2))
        #expect(read == ["c", "d"])
        #expect(yields == ["enqueued 1", "enqueued 0", "dropped a", "dropped b"])
    }

    @Test func aPolicyThatKeepsTheOldestDropsTheNewestAndTheForwarderSeesWhatItDropped() async {
        let (read, yields) = await signInFourUsersBeforeReading(.bufferingOldest(2))
        #expect(read == ["a", "b"])
        #expect(yields == ["enqueued 1", "enqueued 0", "dropped c", "dropped d"])
    }

    /// Signs in users a, b, c and d, then everyone out, before reading events buffered as `policy` says:
    /// what the sequence returns, and what each of the forwarder's yields did.
    func signInFourUsersBeforeReading(
        _ policy: AsyncStream<String>.Continuation.BufferingPolicy
    ) async -> (read: [String], yields: [String]) {
        var forwarder: SignInForwarder?
        let events = signIns.events(bufferingPolicy: policy) { continuation in
            forwarder = SignInForwarder(continuation)
            return forwarder!
        }
        for user in ["a", "b", "c", "d"] {
            signIns.call { $0.didSignIn(user) }
        }
        signIns.call { $0.didSignOutEveryone() }
        return (await read(events), forwarder!.yields.map(\.outcome))
    }

    // MARK: Drops counted for the consumer

    @Test func theLoopLearnsHowManyOfTheOldestEventsWereDroppedBeforeTheOnesItReads() async {
        let events = signIns.events(bufferingPolicy: .bufferingNewest(2), CountedSignIns.init)
        for user in ["a", "b", "c", "d", "e"] { signIns.call { $0.didSignIn(user) } }
        signIns.call { $0.didSignOutEveryone() }
        var read: [(String, dropped: Int)] = []
        for await user in events { read.append((user, events.takeDroppedCount())) }
        #expect(read.map(\.0) == ["d", "e"])
        #expect(read.map(\.dropped) == [3, 0])  // a, b and c, told at the first event read; then none
    }

    @Test func theLoopLearnsHowManyOfTheNewestEventsWereDropped() async {
        let events = signIns.registration.events(bufferingPolicy: .bufferingOldest(2), CountedSignIns.init)
        for user in ["a", "b", "c", "d", "e"] { signIns.call { $0.didSignIn(user) } }
        #expect(events.takeDroppedCount() == 3)  // c, d and e: before the loop reads a or b
        #expect(events.takeDroppedCount() == 0)  // counted anew
        signIns.call { $0.didSignIn("f") }  // dropped too: a and b still wait
        signIns.call { $0.didSignOutEveryone() }
        #expect(await read(events) == ["a", "b"])
        #expect(events.takeDroppedCount() == 1)
    }

    @Test func aBufferThatTakesEveryEventCountsNoDrop() async {
        let events = signIns.events(bufferingPolicy: .unbounded, CountedSignIns.init)
        for user in ["a", "b", "c"] { signIns.call { $0.didSignIn(user) } }
        signIns.call { $0.didSignOutEveryone() }
        #expect(await read(events) == ["a", "b", "c"])
        #expect(events.takeDroppedCount() == 0)
    }

    @Test func aPolicyThatKeepsNoneDropsAndCountsEveryEventYieldedWhileTheLoopIsNotWaiting() async {
        let events = signIns.events(bufferingPolicy: .bufferingOldest(0), CountedSignIns.init)
        for user in ["a", "b", "c"] { signIns.call { $0.didSignIn(user) } }
        signIns.call { $0.didSignOutEveryone() }
        #expect(await read(events) == [])
        #expect(events.takeDroppedCount() == 3)
    }

    @Test func eachDropIsToldOnceToTheFirstThatAsksWhereverItAsks() async {
        let ticks = MulticastDelegate<any TickObserver>()
        let events = ticks.events(bufferingPolicy: .bufferingNewest(1), CountedTicks.init)
        for count in 0..<3 { ticks.call { $0.tick(thread: 0, count: count) } }
        let elsewhere = await Task.detached { events.takeDroppedCount() }.value  // a copy, in another task
        #expect(elsewhere == 2)
        #expect(events.takeDroppedCount() == 0)  // told already
        #expect(await read(events, upTo: 1) == [Tick(thread: 0, count: 2)])
    }

    @Test func dropsOnManyThreadsAreEachCountedOnce() async {
        let ticks = MulticastDelegate<any TickObserver>()
        let events = ticks.events(bufferingPolicy: .bufferingNewest(10), CountedTicks.init)
        let (threads, perThread) = (4, 1_000)
        onThreads(threads) { thread in  // four threads dropping at once, none reading
            for count in 0..<perThread {
                ticks.call { $0.tick(thread: thread, count: count) }
            }
        }
        var taken = events.takeDroppedCount()
        ticks.call { $0.tick(thread: -1, count: -1) }  // drops one more, and is the last of the ten kept
        let received = await read(events, upTo: 10)
        taken += events.takeDroppedCount()
        #expect(received.last == Tick(thread: -1, count: -1))
        #expect(taken == threads * perThread + 1 - 10)
    }

    @Test func anUnboundedBufferKeepsEveryEventUntilItIsRead() async {
        let events = signIns.events(bufferingPolicy: .unbounded, SignInForwarder.init)
        let users = (0..<10_000).map { "user \($0)" }
        for user in users {
            signIns.call { $0.didSignIn(user) }
        }
        signIns.call { $0.didSignOutEveryone() }
        #expect(await read(events) == users)
    }

    @Test func aMainActorForwarderReceivesWhatABackgroundActorPostsInOrder() async {
        let progress = MulticastDelegate<any ProgressObserver>()
        let events = progress.events(bufferingPolicy: .unbounded, ProgressForwarder.init)
        let uploader = Uploader(progress: progress)
        let upload = Task.detached { await uploader.upload() }
        #expect(await read(events) == [0, 25, 50, 75, 100])
        await upload.value
        #expect(progress.isEmpty)
    }

    @Test func sendableForwardersReceiveEventsFromManyThreadsEachThreadsInOrder() async {
        let ticks = MulticastDelegate<any TickObserver>()
        let events = ticks.events(bufferingPolicy: .unbounded, TickForwarder.init)
        let (threads, perThread) = (4, 500)
        onThreads(threads) { thread in
            for count in 0..<perThread {
                ticks.call { $0.tick(thread: thread, count: count) }
            }
        }
        let received = await read(events, upTo: threads * perThread)
        #expect(received.count == threads * perThread)
        for thread in 0..<threads {
            #expect(received.filter { $0.thread == thread }.map(\.count) == Array(0..<perThread))
        }
    }

    @Test func theSequenceLeavesNothingBehind() async {
        weak var multicast: MulticastDelegate<any TickObserver>?
        weak var forwarder: TickForwarder?
        do {
            let ticks = MulticastDelegate<any TickObserver>()
            multicast = ticks
            let events = ticks.events(bufferingPolicy: .unbounded) { continuation in
                let made = TickForwarder(continuation)
                forwarder = made
                return made
            }
            ticks.call { $0.tick(thread: 0, count: 1) }
            #expect(await read(events, upTo: 1) == [Tick(thread: 0, count: 1)])
        }
        #expect(multicast == nil)
        #expect(forwarder == nil)
    }

    @Test func aRegistrationGivesTheEventsOfItsMulticast() async {
        let registration = signIns.registration  // what a module publishes, keeping the multicast private
        let events = registration.events(bufferingPolicy: .unbounded, SignInForwarder.init)
        #expect(signIns.count == 1)
        signIns.call { $0.didSignIn("ada") }
        signIns.call { $0.didSignOutEveryone() }
        #expect(await read(events) == ["ada"])
        #expect(signIns.isEmpty)
    }

    // An exit test, which Swift Testing has on these systems only (not on iOS, tvOS, watchOS or visionOS).
    #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
    @Test func aForwarderThatIsAlreadyADelegateIsRefusedWithAMessageThatSaysWhatToDo() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Shared: TickObserver {
                func tick(thread: Int, count: Int) {}
            }
            let ticks = MulticastDelegate<any TickObserver>()
            let shared = Shared()
            ticks.add(shared)
            _ = ticks.events(of: Int.self, bufferingPolicy: .unbounded) { _ in shared }
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("is already a delegate of this multicast"))
        #expect(message.contains("Return a new object"))
    }

    @Test func askingForTheDropsOfAForwarderThatCannotCountThemIsRefusedWithAMessageThatSaysWhatToDo() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let ticks = MulticastDelegate<any TickObserver>()
            _ = ticks.events(bufferingPolicy: .unbounded, TickForwarder.init).takeDroppedCount()
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("whose drops no one counts"))
        #expect(message.contains("Make the forwarder take an EventContinuation<Element>"))
    }
    #endif
}
