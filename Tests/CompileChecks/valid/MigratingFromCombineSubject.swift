import Multicast

/// The events a subject carried, one method each. Was: `PassthroughSubject<Int, Never>`, or `PublishRelay<Int>`.
@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

@MainActor
final class TabBar {
    private let delegates = MulticastDelegate<any TabBarDelegate>()

    /// Where others subscribe; only the tab bar calls. Was: `eraseToAnyPublisher()`, or `asObservable()`.
    var observers: MulticastDelegate<any TabBarDelegate>.Registration { delegates.registration }

    func select(tag: Int) {
        delegates.call { $0.tabBarDidSelect(tag: tag) }  // was: `send(tag)`, or `accept(tag)`
    }
}

@MainActor
final class FeedScreen: TabBarDelegate {
    init(tabBar: TabBar) {
        tabBar.observers.add(self)  // held weakly: no AnyCancellable or DisposeBag to keep
    }

    func tabBarDidSelect(tag: Int) {}
}
