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
final class TabBarLogger: TabBarDelegate {
    func tabBarDidSelect(tag: Int) { print("tab", tag) }
}

@MainActor
func lifetimes(_ tabBar: MulticastDelegate<any TabBarDelegate>) {
    tabBar.add(TabBarLogger(), retention: .strong)  // nothing else owns the logger: the multicast keeps it

    let feed = FeedScreen()
    tabBar.add(feed)  // true: added, held weakly
    tabBar.add(feed)  // false: already there, keeps its place
    tabBar.call { $0.tabBarDidSelect(tag: 1) }  // the logger, then the feed
    tabBar.remove(feed)  // optional: once `feed` is deallocated, it is gone anyway
    print(tabBar.count, tabBar.contains(feed), tabBar.isEmpty)  // 1 false false
}
