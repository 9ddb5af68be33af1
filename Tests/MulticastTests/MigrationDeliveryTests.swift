import Dispatch
import Multicast
import MulticastChecks
import Testing

// The recipes of SwiftConcurrency.md, "Getting onto the main actor", for delivering to main-actor screens from
// elsewhere, which MigratingFromNotificationCenter.md links to, each checked for what it keeps of `post` with
// `queue: .main` observers (the order of events, no interleaving between two posters, the poster waiting for
// the screens) and what it changes. Every line the screens hear and every line the posters write go to one
// log, so that its order is the order things happened in.
//
// Under `swift test` on Linux the main actor runs on the main queue, which a thread of the pool drains (the
// main thread waits in `dispatch_main`): `DispatchQueue.main.sync` from a background queue runs its block on
// the main actor, and a block added to the main queue while a main-actor test runs waits for the test to
// suspend.

/// What a sync engine tells the screens: heard on the main actor, posted from anywhere.
@MainActor
protocol SyncProgressObserver: AnyObject, Sendable {
    func syncDidStart(_ id: Int)
    func syncDidProgress(_ id: Int, step: Int, of steps: Int)
    func syncDidFinish(_ id: Int)
}

/// A screen that writes what it hears to the shared log.
@MainActor
final class SyncScreen: SyncProgressObserver {
    let log: Guarded<[String]>

    init(log: Guarded<[String]>) {
        self.log = log
    }

    func syncDidStart(_ id: Int) { log.withValue { $0.append("start \(id)") } }
    func syncDidProgress(_ id: Int, step: Int, of steps: Int) { log.withValue { $0.append("\(step)/\(id)") } }
    func syncDidFinish(_ id: Int) { log.withValue { $0.append("done \(id)") } }
}

/// The lines of one sync of `steps` steps, as a screen hears them.
func syncLines(_ id: Int, steps: Int) -> [String] {
    ["start \(id)"] + (1...steps).map { "\($0)/\(id)" } + ["done \(id)"]
}

/// The recipe for a serial queue that waits for its observers, as `post` did: `DispatchQueue.main.sync`.
final class WaitingSyncEngine: Sendable {
    let observers: MulticastDelegate<any SyncProgressObserver>
    private let queue = DispatchQueue(label: "WaitingSyncEngine")

    init(observers: MulticastDelegate<any SyncProgressObserver>) {
        self.observers = observers
    }

    func sync(
        _ id: Int, steps: Int, work: @escaping @Sendable () -> Void = {}, completion: @escaping @Sendable () -> Void
    ) {
        queue.async {
            self.post { $0.syncDidStart(id) }
            work()
            for step in 1...steps { self.post { $0.syncDidProgress(id, step: step, of: steps) } }
            self.post { $0.syncDidFinish(id) }
            completion()
        }
    }

    private func post(_ event: @MainActor (any SyncProgressObserver) -> Void) {
        dispatchPrecondition(condition: .notOnQueue(.main))
        DispatchQueue.main.sync { observers.call(event) }
    }
}

/// The recipe for a serial queue that keeps the order but does not wait: `DispatchQueue.main.async`.
final class QueueingSyncEngine: Sendable {
    let observers: MulticastDelegate<any SyncProgressObserver>
    let queue = DispatchQueue(label: "QueueingSyncEngine")

    init(observers: MulticastDelegate<any SyncProgressObserver>) {
        self.observers = observers
    }

    /// Posts the sync's events from the engine's queue, and returns when they are posted.
    func syncOnItsQueue(_ id: Int, steps: Int, completion: @Sendable () -> Void) {
        queue.sync {
            post { $0.syncDidStart(id) }
            for step in 1...steps { post { $0.syncDidProgress(id, step: step, of: steps) } }
            post { $0.syncDidFinish(id) }
            completion()
        }
    }

    private func post(_ event: @escaping @MainActor (any SyncProgressObserver) -> Void) {
        DispatchQueue.main.async { self.observers.call(event) }
    }
}

/// The recipe for an actor: a hop to the main actor per event, and each sync waits for the one before it.
actor SerialSyncService {
    let observers: MulticastDelegate<any SyncProgressObserver>
    private var last: Task<Void, Never>?

    init(observers: MulticastDelegate<any SyncProgressObserver>) {
        self.observers = observers
    }

    func sync(_ id: Int, steps: Int, work: @escaping @Sendable () async -> Void = {}) async {
        await start(id, steps: steps, work: work).value
    }

    /// Queues a sync behind the ones before it, and returns it once it is queued.
    func start(_ id: Int, steps: Int, work: @escaping @Sendable () async -> Void = {}) -> Task<Void, Never> {
        let previous = last
        let current = Task {
            await previous?.value
            await run(id, steps: steps, work: work)
        }
        last = current
        return current
    }

    private func run(_ id: Int, steps: Int, work: @Sendable () async -> Void) async {
        await MainActor.run { observers.call { $0.syncDidStart(id) } }
        for step in 1...steps {
            await work()
            await MainActor.run { observers.call { $0.syncDidProgress(id, step: step, of: steps) } }
        }
        await MainActor.run { observers.call { $0.syncDidFinish(id) } }
    }
}

/// The trap the recipe above avoids: an actor's method that hops to the main actor per event, and lets another
/// call of itself run at each hop.
actor ReentrantSyncService {
    let observers: MulticastDelegate<any SyncProgressObserver>

    init(observers: MulticastDelegate<any SyncProgressObserver>) {
        self.observers = observers
    }

    func sync(_ id: Int, steps: Int, work: @Sendable () async -> Void = {}) async {
        await MainActor.run { observers.call { $0.syncDidStart(id) } }
        for step in 1...steps {
            await work()
            await MainActor.run { observers.call { $0.syncDidProgress(id, step: step, of: steps) } }
        }
        await MainActor.run { observers.call { $0.syncDidFinish(id) } }
    }
}

@Suite struct MigrationDeliveryTests {
    // MARK: A serial queue that waits for its observers

    @MainActor
    @Test func aSerialQueueThatWaitsDeliversInOrderWithoutInterleavingBeforeItsCompletion() async {
        let log = Guarded<[String]>([])
        let screen = SyncScreen(log: log)
        let observers = MulticastDelegate<any SyncProgressObserver>()
        observers.add(screen)
        let engine = WaitingSyncEngine(observers: observers)
        let completions = Countdown(count: 2)
        for id in [1, 3] {  // started together, as two callers of the engine would
            engine.sync(id, steps: 3) {
                log.withValue { $0.append("completed \(id)") }
                completions.arrive()
            }
        }
        #expect(await eventually { completions.hasOpened }, "the syncs never completed")
        // In order, each sync whole, and each completion after its screens heard "done".
        #expect(log.value == syncLines(1, steps: 3) + ["completed 1"] + syncLines(3, steps: 3) + ["completed 3"])
        withExtendedLifetime(screen) {}
    }

    @MainActor
    @Test func aSerialQueueThatWaitsNeverStartsASyncBeforeTheOneBeforeItHasFinished() async {
        let log = Guarded<[String]>([])
        let screen = SyncScreen(log: log)
        let observers = MulticastDelegate<any SyncProgressObserver>()
        observers.add(screen)
        let engine = WaitingSyncEngine(observers: observers)
        let secondStarted = DispatchSemaphore(value: 0)
        let completions = Countdown(count: 2)
        // The first sync's work waits until the screens hear the second start, or a second at most: on a queue
        // that ran both at once the second would start within the first, and here it never does.
        engine.sync(1, steps: 1, work: { _ = secondStarted.wait(timeout: .now() + 1) }) { completions.arrive() }
        engine.sync(3, steps: 1) { completions.arrive() }
        let watcher = Task {
            _ = await eventually(within: 2) { log.value.contains("start 3") }
            secondStarted.signal()
        }
        #expect(await eventually { completions.hasOpened }, "the syncs never completed")
        await watcher.value
        #expect(log.value == syncLines(1, steps: 1) + syncLines(3, steps: 1))
        withExtendedLifetime(screen) {}
    }

    // MARK: A serial queue that keeps the order but does not wait

    @MainActor
    @Test func aSerialQueueThatDoesNotWaitKeepsTheOrderAndReturnsBeforeTheScreensHear() async {
        let log = Guarded<[String]>([])
        let screen = SyncScreen(log: log)
        let observers = MulticastDelegate<any SyncProgressObserver>()
        observers.add(screen)
        let engine = QueueingSyncEngine(observers: observers)
        // The main actor is busy with this test until it suspends, so no screen can hear before then: the
        // engine's completion comes first, as the recipe says.
        engine.syncOnItsQueue(1, steps: 2) { log.withValue { $0.append("completed 1") } }
        engine.syncOnItsQueue(3, steps: 2) { log.withValue { $0.append("completed 3") } }
        #expect(log.value == ["completed 1", "completed 3"])
        #expect(await eventually { log.value.count == 10 }, "the screens never heard the syncs")
        #expect(log.value == ["completed 1", "completed 3"] + syncLines(1, steps: 2) + syncLines(3, steps: 2))
        withExtendedLifetime(screen) {}
    }

    // MARK: An actor

    @Test func anActorThatQueuesItsSyncsDeliversInOrderWithoutInterleaving() async {
        let log = Guarded<[String]>([])
        let screen = await SyncScreen(log: log)
        let observers = MulticastDelegate<any SyncProgressObserver>()
        observers.add(screen)
        let service = SerialSyncService(observers: observers)
        let heardDoneOnReturn = Guarded<[Int: Bool]>([:])
        await withTaskGroup(of: Void.self) { group in
            for id in [1, 3] {  // started together
                group.addTask {
                    await service.sync(id, steps: 3)
                    let heard = log.value.contains("done \(id)")
                    heardDoneOnReturn.withValue { $0[id] = heard }
                }
            }
        }
        let first = log.value.first == "start 3" ? 3 : 1  // the actor takes them in either order
        let second = 4 - first
        #expect(log.value == syncLines(first, steps: 3) + syncLines(second, steps: 3))
        #expect(heardDoneOnReturn.value == [1: true, 3: true], "a sync returned before its screens heard it end")
        withExtendedLifetime(screen) {}
    }

    @Test func aSyncQueuedOnAnActorWaitsForTheOneBeforeItEvenWhenThatOneSuspends() async {
        let log = Guarded<[String]>([])
        let screen = await SyncScreen(log: log)
        let observers = MulticastDelegate<any SyncProgressObserver>()
        observers.add(screen)
        let service = SerialSyncService(observers: observers)
        let gate = Gate()
        let first = await service.start(1, steps: 1) { await gate.wait() }  // suspends in its work
        #expect(await eventually { log.value == ["start 1"] }, "the first sync never started")
        let second = await service.start(3, steps: 1)  // queued while the first is suspended
        gate.open()
        await first.value
        await second.value
        #expect(log.value == syncLines(1, steps: 1) + syncLines(3, steps: 1))
        withExtendedLifetime(screen) {}
    }

    @Test func anActorThatHopsPerEventInterleavesTwoSyncsAtEachHop() async {
        let log = Guarded<[String]>([])
        let screen = await SyncScreen(log: log)
        let observers = MulticastDelegate<any SyncProgressObserver>()
        observers.add(screen)
        let service = ReentrantSyncService(observers: observers)
        let gate = Gate()
        // The first sync suspends in its work, and the actor runs the second meanwhile: what the recipe that
        // queues the syncs prevents.
        let first = Task { await service.sync(1, steps: 1) { await gate.wait() } }
        #expect(await eventually { log.value == ["start 1"] }, "the first sync never started")
        await service.sync(3, steps: 1)
        gate.open()
        await first.value
        #expect(log.value == ["start 1"] + syncLines(3, steps: 1) + ["1/1", "done 1"])
        withExtendedLifetime(screen) {}
    }

    // MARK: Main-actor code, and a task that does not wait

    @MainActor
    @Test func mainActorCodeCallsTheScreensInPlaceBeforeTheCallReturns() {
        let log = Guarded<[String]>([])
        let screen = SyncScreen(log: log)
        let observers = MulticastDelegate<any SyncProgressObserver>()
        observers.add(screen)
        observers.call { $0.syncDidFinish(1) }
        log.withValue { $0.append("returned") }
        #expect(log.value == ["done 1", "returned"])
    }

    @MainActor
    @Test func aMainActorTaskFromAnotherThreadLetsThePosterReturnBeforeTheScreensHear() async {
        let log = Guarded<[String]>([])
        let screen = SyncScreen(log: log)
        let observers = MulticastDelegate<any SyncProgressObserver>()
        observers.add(screen)
        DispatchQueue(label: "poster").sync {
            Task { @MainActor in observers.call { $0.syncDidFinish(1) } }
            log.withValue { $0.append("completed 1") }
        }
        #expect(await eventually { log.value.count == 2 }, "the screen never heard")
        #expect(log.value == ["completed 1", "done 1"])
        withExtendedLifetime(screen) {}
    }
}
