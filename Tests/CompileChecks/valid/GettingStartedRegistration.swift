import Multicast

// snippet.hide
@MainActor
public protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

// snippet.show
@MainActor
public final class TabBar {
    private let delegates = MulticastDelegate<any TabBarDelegate>()

    /// Where screens subscribe to the tab bar's events; only the tab bar can send them.
    public var observers: MulticastDelegate<any TabBarDelegate>.Registration {
        delegates.registration
    }

    func select(tag: Int) {
        delegates.call { $0.tabBarDidSelect(tag: tag) }
    }
}

@MainActor
final class Inbox: TabBarDelegate {
    init(tabBar: TabBar) {
        tabBar.observers.add(self)  // add, remove and contains: no call, no iteration
    }

    func tabBarDidSelect(tag: Int) {}
}
