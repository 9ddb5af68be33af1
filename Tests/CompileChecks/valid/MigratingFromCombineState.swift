import Multicast

@MainActor
protocol CartObserver: AnyObject {
    func cartDidChange(items: [String])
}

/// Was: `let items = CurrentValueSubject<[String], Never>([])`, or a `BehaviorRelay`.
@MainActor
final class Cart {
    private(set) var items: [String] = []  // the state: what `.value` read
    private let observers = MulticastDelegate<any CartObserver>()  // private: every observer comes through `observe`

    /// Adds `observer`, then tells it the items at once, as subscribing to a `CurrentValueSubject` did.
    func observe(_ observer: any CartObserver) {
        guard observers.add(observer) else { return }  // observing already: no second greeting
        observer.cartDidChange(items: items)  // no change can come between: both run in this main-actor turn
    }

    func stopObserving(_ observer: any CartObserver) {
        observers.remove(observer)
    }

    func add(_ item: String) {
        items.append(item)  // the state first: an observer added during the call below is greeted with it
        observers.call { $0.cartDidChange(items: items) }  // read at each turn, not copied before the call
    }
}
