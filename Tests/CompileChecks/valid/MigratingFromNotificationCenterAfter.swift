import Multicast

@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

@MainActor
enum AppEvents {
    static let tabBar = MulticastDelegate<any TabBarDelegate>()
}

@MainActor
final class FeedScreen: TabBarDelegate {
    init() {
        AppEvents.tabBar.add(self)
    }

    func tabBarDidSelect(tag: Int) {}
}

@MainActor
func userDidSelect(tag: Int) {
    AppEvents.tabBar.call { $0.tabBarDidSelect(tag: tag) }
}
