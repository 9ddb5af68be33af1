import Multicast
import MulticastChecks
import Testing

// The recipes of MigratingFromNotificationCenter.md for what a NotificationCenter app relies on besides
// delivery across threads (MigrationDeliveryTests): one sender and every sender, observers nobody owns,
// observers of every event, one-shot observers, and a `for await` loop whose forwarder is removed.

/// A draft's events: heard on the main actor.
@MainActor
protocol DraftObserver: AnyObject {
    func draftDidSave(_ draft: Draft)
}

/// A sender with observers of its own (`object: draft`), and every draft's observers (`object: nil`).
@MainActor
final class Draft {
    let name: String
    let allObservers: MulticastDelegate<any DraftObserver>  // a static let in the app; a test's own here
    let observers = MulticastDelegate<any DraftObserver>()

    init(_ name: String, allObservers: MulticastDelegate<any DraftObserver>) {
        self.name = name
        self.allObservers = allObservers
    }

    func save() {
        post { $0.draftDidSave(self) }
    }

    /// One call per event: this draft's observers, then every draft's.
    private func post(_ event: (any DraftObserver) -> Void) {
        observers.call(event)
        allObservers.call(event)
    }
}

/// An observer that writes "<its name> heard <the draft's name>" to a log.
@MainActor
final class DraftWatcher: DraftObserver {
    let name: String
    let log: CallLog

    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
    }

    func draftDidSave(_ draft: Draft) { log.append("\(name) heard \(draft.name)") }
}

@MainActor
protocol SelectionObserver: AnyObject {
    func didSelect(tag: Int)
}

@MainActor
protocol SaveObserver: AnyObject {
    func didSave(name: String)
}

/// Every event of the test's hub: adopting it takes every event's methods.
@MainActor
protocol EveryHubEventObserver: SelectionObserver, SaveObserver {}

/// A hub of two multicasts, and the one function that adds an observer to both.
@MainActor
final class EventHub {
    let selections = MulticastDelegate<any SelectionObserver>()
    let saves = MulticastDelegate<any SaveObserver>()

    func addToEveryEvent(_ observer: any EveryHubEventObserver, retention: Retention = .weak) {
        selections.add(observer, retention: retention)
        saves.add(observer, retention: retention)
    }
}

/// A logger of every event, which nothing but the hub owns.
@MainActor
final class EventLogger: EveryHubEventObserver {
    let log: CallLog

    init(log: CallLog) {
        self.log = log
    }

    func didSelect(tag: Int) { log.append("selected \(tag)") }
    func didSave(name: String) { log.append("saved \(name)") }
}

/// Hears the first selection only: the call that removes it is the only one that goes on.
final class FirstSelectionOnly: SendableSelectionObserver {
    let selections: MulticastDelegate<any SendableSelectionObserver>
    let heard = Guarded<[Int]>([])

    init(_ selections: MulticastDelegate<any SendableSelectionObserver>) {
        self.selections = selections
    }

    func didSelect(tag: Int) {
        guard selections.remove(self) else { return }
        heard.withValue { $0.append(tag) }
    }
}

protocol SendableSelectionObserver: AnyObject, Sendable {
    func didSelect(tag: Int)
}

/// Forwards selections into a stream; never finishes it.
@MainActor
final class SelectionForwarder: SelectionObserver {
    let continuation: AsyncStream<Int>.Continuation

    init(_ continuation: AsyncStream<Int>.Continuation) {
        self.continuation = continuation
    }

    func didSelect(tag: Int) { continuation.yield(tag) }
}

@Suite struct MigrationTests {
    // MARK: `object: draft` and `object: nil` together

    @MainActor
    @Test func aSendersOwnObserversHearItBeforeEveryoneAndOnlyItsOwnEvents() {
        let log = CallLog()
        let allDrafts = MulticastDelegate<any DraftObserver>()
        let letter = Draft("letter", allObservers: allDrafts)
        let notes = Draft("notes", allObservers: allDrafts)
        let list = DraftWatcher("list", log: log)
        let editor = DraftWatcher("editor", log: log)
        let outline = DraftWatcher("outline", log: log)
        allDrafts.add(list)  // added first, and still called after the draft's own observers
        letter.observers.add(editor)
        letter.observers.add(outline)
        letter.save()
        notes.save()
        #expect(log.calls == ["editor heard letter", "outline heard letter", "list heard letter", "list heard notes"])
        withExtendedLifetime((list, editor, outline)) {}
    }

    // MARK: An observer nothing owns

    @MainActor
    @Test func aStrongObserverThatNothingOwnsIsKeptAndAWeakOneIsGoneAtOnce() {
        let log = CallLog()
        let hub = EventHub()
        #expect(hub.selections.add(EventLogger(log: log), retention: .strong))
        #expect(hub.selections.count == 1)
        #expect(hub.selections.add(EventLogger(log: log)))  // true, and released on this line
        #expect(hub.selections.count == 1)
        hub.selections.call { $0.didSelect(tag: 1) }
        #expect(log.calls == ["selected 1"])  // the strong logger, once
    }

    // MARK: A block observer, as a closure delegate owned by the object that kept the token

    /// The recipe's delegate: a closure that runs at the event.
    final class SessionObserver: Listener {
        let name = "session observer"
        private let didEnd: () -> Void
        init(didEnd: @escaping () -> Void) { self.didEnd = didEnd }
        func hear(_ event: Int) { didEnd() }
    }

    /// The recipe's owner: what kept the token, and now owns the registration.
    final class ProfileCache {
        let log: CallLog
        let deinitialized: () -> Void
        init(_ session: MulticastDelegate<any Listener>, log: CallLog, deinitialized: @escaping () -> Void) {
            self.log = log
            self.deinitialized = deinitialized
            session.add(SessionObserver { [weak self] in self?.clear() }, ownedBy: self)
        }
        func clear() { log.append("cleared") }
        deinit { deinitialized() }
    }

    @Test func aBlockObserverOwnedByItsObjectIsCalledWhileItLivesAndEndsWithIt() {
        let log = CallLog()
        let session = MulticastDelegate<any Listener>()
        let gone = Box(false)
        var cache: ProfileCache? = ProfileCache(session, log: log) { gone.value = true }
        session.call { $0.hear(1) }
        #expect(log.calls == ["cleared"])
        cache = nil  // no token removed, no deinit code: the registration ends with its owner
        #expect(gone.value)  // the closure captured it weakly: the multicast did not keep it alive
        #expect(session.isEmpty)
        session.call { $0.hear(2) }
        #expect(log.calls == ["cleared"])
        extendLifetime(cache)
    }

    // MARK: An observer of every event

    @MainActor
    @Test func anObserverOfEveryEventHearsEachMulticastOfTheHub() {
        let log = CallLog()
        let hub = EventHub()
        hub.addToEveryEvent(EventLogger(log: log), retention: .strong)
        hub.selections.call { $0.didSelect(tag: 2) }
        hub.saves.call { $0.didSave(name: "letter") }
        #expect(log.calls == ["selected 2", "saved letter"])
    }

    // MARK: One-shot observers

    @MainActor
    @Test func aOneShotObserverHearsOnlyTheFirstCall() {
        let selections = MulticastDelegate<any SendableSelectionObserver>()
        let observer = FirstSelectionOnly(selections)
        selections.add(observer)
        selections.call { $0.didSelect(tag: 1) }
        selections.call { $0.didSelect(tag: 2) }
        #expect(observer.heard.value == [1])
        #expect(selections.isEmpty)
    }

    @Test func aOneShotObserverCalledFromManyThreadsAtOnceHearsOneCall() {
        for _ in 0..<20 {
            let selections = MulticastDelegate<any SendableSelectionObserver>()
            let observer = FirstSelectionOnly(selections)
            selections.add(observer)
            let start = Countdown(count: 4)
            onThreads(4) { thread in
                start.arrive()
                while !start.hasOpened {}  // the four threads call at once, as far as the scheduler lets them
                selections.call { $0.didSelect(tag: thread) }
            }
            #expect(observer.heard.value.count == 1)
            #expect(selections.isEmpty)
        }
    }

    // MARK: A `for await` loop whose forwarder is removed

    @MainActor
    @Test func removingTheForwarderStopsItsEventsAndTheLoopEndsOnlyWhenCancelledOrFinished() async {
        let selections = MulticastDelegate<any SelectionObserver>()
        let events = selections.events(bufferingPolicy: .unbounded, SelectionForwarder.init)
        selections.call { $0.didSelect(tag: 1) }
        selections.removeAll()  // the forwarder is no longer a delegate...
        selections.call { $0.didSelect(tag: 2) }  // ...and hears nothing more
        #expect(selections.isEmpty)
        let received = Received<Int>()
        let reader = Task { @MainActor in
            for await tag in events { received.append(tag) }
            received.stop()
        }
        #expect(await eventually { received.elements == [1] }, "the event before the removal never came")
        #expect(!received.hasStopped)  // ...but the loop is still open: removal does not end it
        reader.cancel()  // what ends it: cancelling the task, or the forwarder finishing the continuation
        #expect(await eventually { received.hasStopped }, "cancelling the task did not end the loop")
        #expect(received.elements == [1])
    }
}
