// snippet.hide
import Multicast

@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

@MainActor
final class FeedScreen: TabBarDelegate {
    func tabBarDidSelect(tag: Int) {}
}

// snippet.show
@MainActor
func preview(_ tabBar: MulticastDelegate<any TabBarDelegate>) {
    let feed = FeedScreen()
    tabBar.add(feed)  // the last use of `feed`: an optimized build may free it right here
    tabBar.call { $0.tabBarDidSelect(tag: 1) }  // so in a release build the feed may never hear this

    let banner = FeedScreen()
    tabBar.add(banner)
    withExtendedLifetime(banner) {  // `banner` lives until the closure returns, in every build
        tabBar.call { $0.tabBarDidSelect(tag: 2) }
    }
}
