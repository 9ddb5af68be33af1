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
final class TabBarLogger: TabBarDelegate {
    func tabBarDidSelect(tag: Int) { print("tab", tag) }
}

@MainActor
func applicationDidFinishLaunching() {
    AppEvents.tabBar.add(TabBarLogger(), retention: .strong)  // nothing else owns it: the multicast keeps it
    AppEvents.tabBar.add(TabBarLogger())  // weak: released on this line, never called
}
