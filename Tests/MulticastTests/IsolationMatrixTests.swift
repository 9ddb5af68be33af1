import Dispatch
import Multicast
import MulticastChecks
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The isolation matrix: for each way the multicast delivers to its delegates (`call`, `first`/`contains`/
// `allSatisfy`/iteration, the members of `inTurn` and of `concurrently`, `events`), traced and untraced, and for
// each kind of caller (the main actor, an actor, a thread), where the delegates run, checked at run time in debug
// and release builds alike. The checks that must hold trap where they do not: `MainActor.preconditionIsolated` and
// `Actor.preconditionIsolated` check in release builds too, unlike `assertIsolated`. The checks that a trap cannot
// make (on this thread, off that actor) are recorded and expected: the actor runs on an executor of its own, a
// dispatch queue that tells whether the code that asks runs on it, so the answer is a `Bool` and never a trap.

// Serialized: run side by side, its cases' tasks, hopping between the main actor and the islands' custom
// executors, made the thread sanitizer report `InTurn.first(where:)`'s inout observer (a local of its caller) as
// raced, in about one run of this suite in seven: two calls of it, one resumed on the main queue and one starting
// on an island, at one address of task memory that the concurrency runtime hands from task to task in an order
// the sanitizer does not see. One case at a time, 40 runs were clean.
@Suite(.serialized) struct IsolationMatrixTests {
    /// The checks themselves tell one place from another: a check that could not fail would prove nothing.
    @Test func theChecksTellOnePlaceFromAnother() async {
        let island = Island()
        #expect(!island.executor.isCurrent)
        #expect(await island.isOnItsExecutor())
        let here = ThreadID.current
        #expect(here.isCurrent)
        let elsewhere = Guarded(true)
        onThreads(1) { _ in elsewhere.value = here.isCurrent }
        #expect(!elsewhere.value)
    }

    // MARK: `call`: synchronous, on the caller's thread and executor

    @MainActor
    @Test(arguments: Tracing.allCases)
    func callFromTheMainActorRunsTheDelegatesOnTheMainActorBeforeItReturns(_ tracing: Tracing) {
        let placements = Placements()
        let (screens, onScreen) = MainScreen.two(in: placements)
        defer { extendLifetime(onScreen) }
        let thread = ThreadID.current
        tracing.apply(to: screens, handlerAt: [.mainActor, .thread(thread)], placements)

        var turns = 0  // main-actor state, changed by the body without `await`
        screens.call { screen in
            placements.check("call's body", at: .mainActor, .thread(thread))
            screen.hear()
            turns += 1
        }

        #expect(turns == 2)  // every delegate ran before `call` returned
        #expect(placements.misplaced == [])
        #expect(placements.checked == 4 + tracing.handlerChecks)
    }

    @Test(arguments: Tracing.allCases)
    func callFromABackgroundThreadRunsTheDelegatesOnThatThreadBeforeItReturns(_ tracing: Tracing) {
        let placements = Placements()
        let turns = Guarded(0)
        onThreads(1) { _ in
            let thread = ThreadID.current
            let probes = MulticastDelegate<any NonisolatedProbe>()
            let delegates = [PlacedProbe(.thread(thread), placements), PlacedProbe(.thread(thread), placements)]
            defer { extendLifetime(delegates) }
            for delegate in delegates { probes.add(delegate) }
            tracing.apply(to: probes, handlerAt: [.thread(thread)], placements)

            var called = 0
            probes.call { probe in
                probe.hear()
                called += 1
            }
            turns.value = called  // every delegate ran before `call` returned
        }

        #expect(turns.value == 2)
        #expect(placements.misplaced == [])
        #expect(placements.checked == 2 + tracing.handlerChecks)
    }

    @Test(arguments: Tracing.allCases)
    func callFromAnActorRunsTheDelegatesOnTheActorBeforeItReturns(_ tracing: Tracing) async {
        let placements = Placements()
        let island = Island()

        let turns = await island.call(tracing: tracing, placements: placements)

        #expect(turns == 2)
        #expect(placements.misplaced == [])
        #expect(placements.checked == 2 + tracing.handlerChecks)
    }

    /// `first(where:)`, `contains(where:)`, `allSatisfy(_:)`, `for ... in` and `Sequence`'s `map`: on the caller's
    /// executor. (They are not traced.)
    @Test func synchronousQuestionsFromAnActorRunOnTheActor() async {
        let placements = Placements()
        let island = Island()

        await island.askSynchronously(placements: placements)

        #expect(placements.misplaced == [])
        #expect(placements.checked == 10)
    }

    // MARK: `inTurn`: one delegate at a time, on the caller's actor; each requirement where its isolation says

    /// From the main actor: the bodies, and a `nonisolated(nonsending)` requirement, on the main actor, across
    /// suspensions; a `@MainActor` requirement on the main actor.
    @MainActor
    @Test(arguments: InTurnMember.allCases, Tracing.allCases)
    func inTurnFromTheMainActorRunsOnTheMainActor(_ member: InTurnMember, _ tracing: Tracing) async {
        let placements = Placements()
        let probes = MulticastDelegate<any NonisolatedProbe>()
        let nearby = [PlacedProbe(.mainActor, placements), PlacedProbe(.mainActor, placements)]
        let screens = MulticastDelegate<any MainActorProbe>()
        let onScreen = [MainScreen(placements), MainScreen(placements)]
        defer { extendLifetime((nearby, onScreen)) }
        for probe in nearby { probes.add(probe) }
        for screen in onScreen { screens.add(screen) }
        tracing.apply(to: probes, handlerAt: [.mainActor], placements)
        tracing.apply(to: screens, handlerAt: [.mainActor], placements)

        await askEachInTurn(member, probes, screens, callerAt: .mainActor, placements)

        #expect(placements.misplaced == [])
        #expect(placements.checked == 18 + 2 * tracing.handlerChecks)
    }

    /// From an actor: the bodies, and a `nonisolated(nonsending)` requirement, on the actor, across suspensions; a
    /// `@MainActor` requirement on the main actor, and the body back on the actor after it.
    @MainActor
    @Test(arguments: InTurnMember.allCases, Tracing.allCases)
    func inTurnFromAnActorRunsOnTheActor(_ member: InTurnMember, _ tracing: Tracing) async {
        let placements = Placements()
        let island = Island()
        let (screens, onScreen) = MainScreen.two(in: placements)
        defer { extendLifetime(onScreen) }

        await island.askInTurn(member, screens: screens, tracing: tracing, placements: placements)

        #expect(placements.misplaced == [])
        #expect(placements.checked == 18 + 2 * tracing.handlerChecks)
    }

    /// The shape of swiftlang/swift#89214: a `nonisolated(nonsending)` async function (`inTurn.call`, and
    /// ``callAConcurrentClosure(_:)``) that calls a `@MainActor` delegate or an `@concurrent` closure must stay
    /// on the main actor, its caller's; a toolchain that loses the isolation stops this test at a
    /// `MainActor.preconditionIsolated`, in every build. (The body, written in main-actor code, is itself
    /// main-actor isolated: a library that called it off the actor would not move it. The matrix's bodies, written
    /// in `nonisolated(nonsending)` code, are the ones that catch such a library.)
    @MainActor
    @Test func inTurnCallKeepsTheMainActorAcrossAConcurrentHop() async {
        let placements = Placements()
        let (screens, onScreen) = MainScreen.two(in: placements)
        defer { extendLifetime(onScreen) }
        let hop: @concurrent () async -> Void = { await Task.yield() }

        var turns = 0  // main-actor state, changed by the bodies without `await`
        await screens.inTurn.call { screen in
            MainActor.preconditionIsolated("inTurn.call's body, before its delegate's turn")
            _ = await screen.answer()  // MainActor.preconditionIsolated, before and after an @concurrent hop
            MainActor.preconditionIsolated("inTurn.call's body, after its delegate's turn")
            await hop()
            MainActor.preconditionIsolated("inTurn.call's body, after an @concurrent closure")
            await callAConcurrentClosure(hop)  // MainActor.preconditionIsolated inside, after the closure
            MainActor.preconditionIsolated("inTurn.call's body, after a function that called one")
            turns += 1
        }
        MainActor.preconditionIsolated("after inTurn.call")

        #expect(turns == 2)
        #expect(placements.checked == 4)
    }

    // MARK: `concurrently`: each body in a child task, off the caller's actor

    /// From an actor: each body, and a `nonisolated(nonsending)` requirement, off the actor; a `@MainActor`
    /// requirement on the main actor; the caller back on its actor afterwards.
    @MainActor
    @Test(arguments: ConcurrentlyMember.allCases, Tracing.allCases)
    func concurrentlyFromAnActorRunsTheBodiesOffTheActor(_ member: ConcurrentlyMember, _ tracing: Tracing) async {
        let placements = Placements()
        let island = Island()
        let (screens, onScreen) = MainScreen.two(in: placements)
        defer { extendLifetime(onScreen) }

        await island.askConcurrently(member, screens: screens, tracing: tracing, placements: placements)

        #expect(placements.misplaced == [])
        #expect(placements.checked == 18 + 2 * tracing.handlerChecks)
    }

    // MARK: `events`: the forwarder where the call is made, the `for await` loop on the consuming actor

    @MainActor
    @Test(arguments: EventsSource.allCases)
    func eventsCalledOnTheMainActorAreConsumedOnTheConsumingActor(_ source: EventsSource) async {
        let placements = Placements()
        let island = Island()
        let probes = MulticastDelegate<any ProbeEvents>()
        let events = source.events(of: probes) { EventForwarder($0, calledAt: .mainActor, placements) }
        let consumer = Task { await island.consume(events, placements: placements) }

        for event in 1...3 { probes.call { $0.hear(event) } }
        probes.call { $0.end() }

        #expect(await consumer.value == [1, 2, 3])
        #expect(placements.misplaced == [])
        #expect(placements.checked == 8)
    }
}

// MARK: - Where code runs, and the checks

/// The executor of an ``Island``: a serial dispatch queue that tells, at run time and in every build, whether the
/// code that asks runs on it, from a key that only code running on the queue reads.
final class IslandExecutor: SerialExecutor, @unchecked Sendable {  // immutable; dispatch's types are thread-safe
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
    }

    /// Whether the calling code runs on this executor. Never traps.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) ?? false
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// What the runtime asks to check isolation when the current executor is not this one:
    /// `Actor.preconditionIsolated` on an ``Island`` traps if this is false.
    func isIsolatingCurrentContext() -> Bool? {
        isCurrent
    }

    func checkIsolated() {
        precondition(isCurrent, "not on \(queue.label)")
    }
}

/// An actor on an executor of its own, which tells whether code runs on it.
actor Island {
    nonisolated let executor = IslandExecutor(label: "IsolationMatrixTests.Island")

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    func isOnItsExecutor() -> Bool {
        executor.isCurrent
    }
}

/// A thread, told from others with `pthread_equal`.
struct ThreadID: @unchecked Sendable {  // a `pthread_t` is a number or an opaque pointer, never dereferenced here
    let handle: pthread_t

    static var current: ThreadID {
        ThreadID(handle: pthread_self())
    }

    /// Whether the calling code runs on this thread.
    var isCurrent: Bool {
        pthread_equal(handle, pthread_self()) != 0
    }
}

/// Where a test expects code to run.
enum Place: Sendable {
    /// On the main actor: checked with `MainActor.preconditionIsolated`, which traps elsewhere.
    case mainActor
    /// On the island: checked with `Actor.preconditionIsolated`, which traps elsewhere, and recorded.
    case island(Island)
    /// Anywhere but on the island: recorded.
    case offIsland(Island)
    /// On a thread: recorded.
    case thread(ThreadID)
}

/// What a test's checks found: how many ran, and which ran elsewhere than expected (those that do not trap).
final class Placements: Sendable {
    private let state = Guarded<(checked: Int, misplaced: [String])>((0, []))

    var checked: Int { state.value.checked }
    var misplaced: [String] { state.value.misplaced }

    /// Checks that the calling code runs at every one of `places`.
    func check(_ what: String, at places: Place...) {
        check(what, at: places)
    }

    func check(_ what: String, at places: [Place]) {
        var misplaced: [String] = []
        for place in places {
            switch place {
            case .mainActor:
                MainActor.preconditionIsolated("\(what): not on the main actor")
            case .island(let island):
                island.preconditionIsolated("\(what): not on the island")
                if !island.executor.isCurrent { misplaced.append("\(what): not on the island") }
            case .offIsland(let island):
                if island.executor.isCurrent { misplaced.append("\(what): on the island") }
            case .thread(let thread):
                if !thread.isCurrent { misplaced.append("\(what): not on the calling thread") }
            }
        }
        state.withValue {
            $0.checked += 1
            $0.misplaced += misplaced
        }
    }
}

/// Whether a test's multicasts are traced, which takes other paths through the library.
enum Tracing: CaseIterable, Sendable {
    case untraced, traced

    /// The checks a traced call adds: its trace handler's.
    var handlerChecks: Int {
        self == .traced ? 1 : 0
    }

    /// Traces every call of `multicast`, if traced, with a handler that checks that it runs at `places`: on the
    /// thread that made the call, after it.
    func apply<Delegate>(to multicast: MulticastDelegate<Delegate>, handlerAt places: [Place], _ placements: Placements)
    {
        guard self == .traced else { return }
        multicast.diagnostics = MulticastDiagnostics(traceHandler: { _ in
            placements.check("the trace handler", at: places)
        })
    }
}

// MARK: - Delegates that check where they run

/// A delegate with no isolation of its own.
protocol NonisolatedProbe: AnyObject {
    /// Synchronous: runs where the call runs.
    func hear()
    /// Runs on the caller's actor, across its suspensions.
    nonisolated(nonsending) func answer() async -> Bool
}

/// A delegate with no isolation of its own that may be shared, as `concurrently` needs.
protocol SharedNonisolatedProbe: NonisolatedProbe, Sendable {}

/// A delegate isolated to the main actor: its requirements run there, whoever calls them.
@MainActor
protocol MainActorProbe: AnyObject, Sendable {
    func hear()
    func answer() async -> Bool
}

/// A delegate for `events`: it yields each event it hears, and ends the sequence.
protocol ProbeEvents: AnyObject, Sendable {
    func hear(_ event: Int)
    func end()
}

/// A probe that checks that each of its calls runs at `place`.
final class PlacedProbe: SharedNonisolatedProbe {
    let place: Place
    let placements: Placements

    init(_ place: Place, _ placements: Placements) {
        self.place = place
        self.placements = placements
    }

    func hear() {
        placements.check("hear()", at: place)
    }

    nonisolated(nonsending) func answer() async -> Bool {
        placements.check("answer(), before a suspension", at: place)
        await leaveTheActor()
        placements.check("answer(), after a suspension", at: place)
        return true
    }
}

/// A main-actor probe that checks that each of its calls runs on the main actor.
@MainActor
final class MainScreen: MainActorProbe {
    let placements: Placements

    init(_ placements: Placements) {
        self.placements = placements
    }

    /// Two screens that check into `placements`, added weakly to a new multicast: keep them alive while it is called.
    static func two(in placements: Placements) -> (MulticastDelegate<any MainActorProbe>, [MainScreen]) {
        let multicast = MulticastDelegate<any MainActorProbe>()
        let screens = [MainScreen(placements), MainScreen(placements)]
        for screen in screens { multicast.add(screen) }
        return (multicast, screens)
    }

    func hear() {
        placements.check("a main-actor hear()", at: .mainActor)
    }

    func answer() async -> Bool {
        placements.check("a main-actor answer(), before a suspension", at: .mainActor)
        await leaveTheActor()
        placements.check("a main-actor answer(), after a suspension", at: .mainActor)
        return true
    }
}

/// A forwarder that checks that it is called at `calledAt`.
final class EventForwarder: ProbeEvents {
    let continuation: AsyncStream<Int>.Continuation
    let calledAt: Place
    let placements: Placements

    init(_ continuation: AsyncStream<Int>.Continuation, calledAt: Place, _ placements: Placements) {
        self.continuation = continuation
        self.calledAt = calledAt
        self.placements = placements
    }

    func hear(_ event: Int) {
        placements.check("the forwarder's hear(_:)", at: calledAt)
        continuation.yield(event)
    }

    func end() {
        placements.check("the forwarder's end()", at: calledAt)
        continuation.finish()
    }
}

// MARK: - The calls

/// The members of `inTurn`.
enum InTurnMember: CaseIterable, Sendable {
    case call, map, first, contains, allSatisfy

    /// Calls `body` with every delegate of `multicast`, in turn, through this member.
    nonisolated(nonsending) func run<Delegate>(
        on multicast: MulticastDelegate<Delegate>, _ body: nonisolated(nonsending) (Delegate) async -> Void
    ) async {
        switch self {
        case .call: await multicast.inTurn.call(body)
        case .map: _ = await multicast.inTurn.map { await body($0) }
        case .first:
            _ = await multicast.inTurn.first { delegate in
                await body(delegate)
                return false  // asks every delegate
            }
        case .contains:
            _ = await multicast.inTurn.contains { delegate in
                await body(delegate)
                return false
            }
        case .allSatisfy:
            _ = await multicast.inTurn.allSatisfy { delegate in
                await body(delegate)
                return true
            }
        }
    }
}

/// The members of `concurrently`.
enum ConcurrentlyMember: CaseIterable, Sendable {
    case call, map

    /// Calls `body` with every delegate of `multicast`, at once, through this member.
    nonisolated(nonsending) func run<Delegate: Sendable>(
        on multicast: MulticastDelegate<Delegate>, _ body: @escaping @Sendable (Delegate) async -> Void
    ) async {
        switch self {
        case .call: await multicast.concurrently.call(body)
        case .map:
            _ = await multicast.concurrently.map { delegate in
                await body(delegate)
                return true
            }
        }
    }
}

/// Asks `probes`, then `screens`, through `member`, in turn, from a caller at `caller`: each body checks, before
/// and after its delegate's turn, that it runs where its caller does; the delegates check where they run.
nonisolated(nonsending) func askEachInTurn(
    _ member: InTurnMember, _ probes: MulticastDelegate<any NonisolatedProbe>,
    _ screens: MulticastDelegate<any MainActorProbe>, callerAt caller: Place, _ placements: Placements
) async {
    await member.run(on: probes) { probe in
        placements.check("inTurn.\(member)'s body, before its turn", at: caller)
        _ = await probe.answer()
        placements.check("inTurn.\(member)'s body, after its turn", at: caller)
    }
    placements.check("after inTurn.\(member)", at: caller)
    await member.run(on: screens) { screen in
        placements.check("inTurn.\(member)'s body, before a main-actor turn", at: caller)
        _ = await screen.answer()
        placements.check("inTurn.\(member)'s body, after a main-actor turn", at: caller)
    }
    placements.check("after inTurn.\(member)", at: caller)
}

/// Calls `closure`, and checks that it is back on the main actor, its caller's, once the closure has returned:
/// the shape of swiftlang/swift#89214, a `nonisolated(nonsending)` function that calls an `@concurrent` closure.
nonisolated(nonsending) func callAConcurrentClosure(_ closure: @concurrent () async -> Void) async {
    await closure()
    MainActor.preconditionIsolated("a nonisolated(nonsending) function, after the @concurrent closure it called")
}

/// Where to get a multicast's events from: the multicast, or its registration view.
enum EventsSource: CaseIterable, Sendable {
    case multicast, registration

    func events(
        of probes: MulticastDelegate<any ProbeEvents>,
        _ makeForwarder: (AsyncStream<Int>.Continuation) -> any ProbeEvents
    ) -> MulticastDelegate<any ProbeEvents>.Events<Int> {
        switch self {
        case .multicast: probes.events(bufferingPolicy: .unbounded, makeForwarder)
        case .registration: probes.registration.events(bufferingPolicy: .unbounded, makeForwarder)
        }
    }
}

extension Island {
    /// Calls two probes of its own with `call`, and returns how many had their turn before `call` returned.
    func call(tracing: Tracing, placements: Placements) -> Int {
        let probes = MulticastDelegate<any NonisolatedProbe>()
        let delegates = [PlacedProbe(.island(self), placements), PlacedProbe(.island(self), placements)]
        defer { extendLifetime(delegates) }
        for delegate in delegates { probes.add(delegate) }
        tracing.apply(to: probes, handlerAt: [.island(self)], placements)

        var turns = 0
        probes.call { probe in
            probe.hear()
            turns += 1
        }
        return turns
    }

    /// Asks two probes of its own with each synchronous question: ten checks.
    func askSynchronously(placements: Placements) {
        let probes = MulticastDelegate<any NonisolatedProbe>()
        let delegates = [PlacedProbe(.island(self), placements), PlacedProbe(.island(self), placements)]
        defer { extendLifetime(delegates) }
        for delegate in delegates { probes.add(delegate) }

        _ = probes.first { probe in
            probe.hear()
            return false
        }
        _ = probes.contains { probe in
            probe.hear()
            return false
        }
        _ = probes.allSatisfy { probe in
            probe.hear()
            return true
        }
        for probe in probes { probe.hear() }
        _ = probes.map { $0.hear() }
    }

    /// Asks two probes of its own, then `screens`, through `member`, in turn: 18 checks, and a trace handler's for
    /// each multicast if traced.
    func askInTurn(
        _ member: InTurnMember, screens: MulticastDelegate<any MainActorProbe>, tracing: Tracing, placements: Placements
    ) async {
        let probes = MulticastDelegate<any NonisolatedProbe>()
        let delegates = [PlacedProbe(.island(self), placements), PlacedProbe(.island(self), placements)]
        defer { extendLifetime(delegates) }
        for delegate in delegates { probes.add(delegate) }
        tracing.apply(to: probes, handlerAt: [.island(self)], placements)
        tracing.apply(to: screens, handlerAt: [.island(self)], placements)

        await askEachInTurn(member, probes, screens, callerAt: .island(self), placements)
    }

    /// Asks two shared probes of its own, then `screens`, through `member`, at once: each body checks that it runs
    /// off the island; 18 checks, and a trace handler's for each multicast if traced.
    func askConcurrently(
        _ member: ConcurrentlyMember, screens: MulticastDelegate<any MainActorProbe>, tracing: Tracing,
        placements: Placements
    ) async {
        let probes = MulticastDelegate<any SharedNonisolatedProbe>()
        let delegates = [PlacedProbe(.offIsland(self), placements), PlacedProbe(.offIsland(self), placements)]
        defer { extendLifetime(delegates) }
        for delegate in delegates { probes.add(delegate) }
        tracing.apply(to: probes, handlerAt: [.island(self)], placements)
        tracing.apply(to: screens, handlerAt: [.island(self)], placements)

        await member.run(on: probes) { [self] probe in
            placements.check("concurrently.\(member)'s body, before its turn", at: .offIsland(self))
            _ = await probe.answer()
            placements.check("concurrently.\(member)'s body, after its turn", at: .offIsland(self))
        }
        placements.check("after concurrently.\(member)", at: .island(self))
        await member.run(on: screens) { [self] screen in
            placements.check("concurrently.\(member)'s body, before a main-actor turn", at: .offIsland(self))
            _ = await screen.answer()
            placements.check("concurrently.\(member)'s body, after a main-actor turn", at: .offIsland(self))
        }
        placements.check("after concurrently.\(member)", at: .island(self))
    }

    /// Reads `events` to their end in a `for await` loop, checking that its body runs on the island: four checks
    /// for three events.
    func consume(_ events: MulticastDelegate<any ProbeEvents>.Events<Int>, placements: Placements) async -> [Int] {
        var received: [Int] = []
        for await event in events {
            placements.check("the for-await loop's body", at: .island(self))
            received.append(event)
        }
        placements.check("after the for-await loop", at: .island(self))
        return received
    }
}
