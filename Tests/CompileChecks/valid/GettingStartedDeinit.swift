import Multicast

// snippet.hide
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
final class SettingsScreen: TabBarDelegate {
    init() {
        AppEvents.tabBar.add(self)
    }

    func tabBarDidSelect(tag: Int) {}

    isolated deinit {
        AppEvents.tabBar.remove(self)  // not needed, and false: the multicast has already let go
    }
}
