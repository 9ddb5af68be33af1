import Multicast
import Testing

/// A Redux-style store whose registry keeps state for each subscriber, as "Replacing your own list of observers"
/// builds it: a subscription per subscriber, owned by the subscriber.
@Suite struct OwnedStoreTests {
    protocol StoreSubscriber: AnyObject {
        func newState(_ state: Int)
    }

    final class Subscription {
        weak var subscriber: (any StoreSubscriber)?
        let skipsRepeats: Bool
        private var last: Int?
        init(_ subscriber: any StoreSubscriber, skipsRepeats: Bool) {
            self.subscriber = subscriber
            self.skipsRepeats = skipsRepeats
        }

        func deliver(_ state: Int) {
            if skipsRepeats && state == last { return }
            last = state
            subscriber?.newState(state)
        }
    }

    final class Store {
        let subscriptions = MulticastDelegate<Subscription>()

        func subscribe(_ subscriber: any StoreSubscriber, skipsRepeats: Bool = true) {
            subscriptions.add(Subscription(subscriber, skipsRepeats: skipsRepeats), ownedBy: subscriber)
        }

        func unsubscribe(_ subscriber: any StoreSubscriber) {
            subscriptions.remove(ownedBy: subscriber)
        }

        func dispatch(_ state: Int) {
            subscriptions.call { $0.deliver(state) }
        }
    }

    final class Subscriber: StoreSubscriber {
        var states: [Int] = []
        var onNewState: ((Subscriber) -> Void)?
        func newState(_ state: Int) {
            states.append(state)
            onNewState?(self)
        }
    }

    @Test func eachSubscriptionKeepsItsOwnOptionsAndState() {
        let store = Store()
        let (repeats, skips) = (Subscriber(), Subscriber())
        defer { extendLifetime((repeats, skips)) }
        store.subscribe(repeats, skipsRepeats: false)
        store.subscribe(skips)
        for state in [1, 1, 2, 2, 3] { store.dispatch(state) }
        #expect(repeats.states == [1, 1, 2, 2, 3])
        #expect(skips.states == [1, 2, 3])
    }

    @Test func subscribingAgainReplacesTheSubscriptionAndItsOptions() {
        let store = Store()
        let subscriber = Subscriber()
        defer { extendLifetime(subscriber) }
        store.subscribe(subscriber)
        store.subscribe(subscriber, skipsRepeats: false)
        store.dispatch(1)
        store.dispatch(1)
        #expect(subscriber.states == [1, 1])
        #expect(store.subscriptions.count == 1)
        #expect(store.subscriptions.delegate(ownedBy: subscriber)?.skipsRepeats == false)
    }

    @Test func aSubscriberThatGoesAwayIsNeitherCalledNorKept() {
        let store = Store()
        weak var subscription: Subscription?
        do {
            let subscriber = Subscriber()
            store.subscribe(subscriber)
            subscription = store.subscriptions.delegate(ownedBy: subscriber)
            #expect(subscription != nil)
            extendLifetime(subscriber)
        }
        #expect(store.subscriptions.isEmpty)
        store.dispatch(1)  // finds the ended registration, and reclaims it
        #expect(subscription == nil)
    }

    /// Subscribers that unsubscribe each other during a dispatch: one removed before its turn is not called,
    /// where a store that calls a copy of its array calls every subscriber of the copy.
    @Test func aSubscriberUnsubscribedBeforeItsTurnIsNotCalled() {
        let store = Store()
        let subscribers = (0..<4).map { _ in Subscriber() }
        defer { extendLifetime(subscribers) }
        subscribers[0].onNewState = { _ in
            for later in subscribers.dropFirst() { store.unsubscribe(later) }
        }
        for subscriber in subscribers { store.subscribe(subscriber) }
        store.dispatch(1)
        #expect(subscribers.map(\.states) == [[1], [], [], []])
    }

    @Test func thousandsOfSubscribersComeAndGoByTheirOwnIdentity() {
        let store = Store()
        let subscribers = (0..<3_000).map { _ in Subscriber() }
        defer { extendLifetime(subscribers) }
        for subscriber in subscribers { store.subscribe(subscriber) }
        #expect(store.subscriptions.count == 3_000)
        for subscriber in subscribers.enumerated() where subscriber.offset % 2 == 0 {
            store.unsubscribe(subscriber.element)
        }
        store.dispatch(7)
        #expect(subscribers.enumerated().allSatisfy { $0.element.states == ($0.offset % 2 == 0 ? [] : [7]) })
    }
}
