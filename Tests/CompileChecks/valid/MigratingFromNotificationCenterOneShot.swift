// snippet.with: MigratingFromNotificationCenterAfter.swift
// snippet.hide
import Multicast

// snippet.show
@MainActor
final class FirstSelectionTip: TabBarDelegate {
    init() {
        AppEvents.tabBar.add(self, retention: .strong)
    }

    func tabBarDidSelect(tag: Int) {
        guard AppEvents.tabBar.remove(self) else { return }  // once: only the call that removes it goes on
        print("Tip: touch and hold a tab to reorder the tabs")
    }
}
