import Multicast

@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
    func tabBarWillAppear() async
}

@MainActor
enum AppEvents {
    static let tabBar = MulticastDelegate<any TabBarDelegate>()
}

@MainActor
final class FeedScreen: TabBarDelegate {
    var selectedTag = 0

    init() {
        AppEvents.tabBar.add(self)  // held weakly: no need to remove it in deinit
    }

    func tabBarDidSelect(tag: Int) { selectedTag = tag }
    func tabBarWillAppear() async {}
}

@MainActor
func userTappedTab(_ tag: Int) async {
    AppEvents.tabBar.call { $0.tabBarDidSelect(tag: tag) }  // synchronous: no await
    await AppEvents.tabBar.inTurn.call { await $0.tabBarWillAppear() }  // one after another, on the main actor
}
