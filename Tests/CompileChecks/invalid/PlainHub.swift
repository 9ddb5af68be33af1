// expected-error: static property 'tabBar' is not concurrency-safe because non-'Sendable' type 'MulticastDelegate<any TabBarDelegate>'
// default-isolation MainActor: compiles
import Multicast

protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

enum AppEvents {
    static let tabBar = MulticastDelegate<any TabBarDelegate>()
}

final class FeedScreen: TabBarDelegate {
    init() {
        AppEvents.tabBar.add(self)
    }

    func tabBarDidSelect(tag: Int) {}
}

func userDidSelect(tag: Int) {
    AppEvents.tabBar.call { $0.tabBarDidSelect(tag: tag) }
}
