// snippet.hide
import Multicast

@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

@MainActor
enum AppEvents {
    static let tabBar = MulticastDelegate<any TabBarDelegate>()
}
// snippet.show
@MainActor
final class FeedScreen: TabBarDelegate {
    init() {
        AppEvents.tabBar.add(self)  // held weakly: no need to remove it in deinit
    }

    func tabBarDidSelect(tag: Int) {
        print("Feed sees tab", tag)
    }
}

@MainActor
final class TabBarController {
    func userDidSelect(tag: Int) {
        AppEvents.tabBar.call { $0.tabBarDidSelect(tag: tag) }  // every screen, in the order they were added
    }
}
