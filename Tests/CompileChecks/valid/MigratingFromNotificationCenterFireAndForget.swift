// snippet.with: MigratingFromNotificationCenterAfter.swift
// snippet.hide
import Multicast

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
