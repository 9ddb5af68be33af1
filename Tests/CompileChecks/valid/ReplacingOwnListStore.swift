import Multicast

protocol StoreSubscriber: AnyObject {
    func newState(_ state: Int)
}

/// What the store keeps for each subscriber: its option, and the subscriber itself, weakly.
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
    private let subscriptions = MulticastDelegate<Subscription>()  // a class type works as the delegate type

    func subscribe(_ subscriber: any StoreSubscriber, skipsRepeats: Bool = true) {
        // Held while `subscriber` lives; subscribing again replaces the subscription.
        subscriptions.add(Subscription(subscriber, skipsRepeats: skipsRepeats), ownedBy: subscriber)
    }

    func unsubscribe(_ subscriber: any StoreSubscriber) {
        subscriptions.remove(ownedBy: subscriber)
    }

    func dispatch(_ state: Int) {
        subscriptions.call { $0.deliver(state) }
    }
}
