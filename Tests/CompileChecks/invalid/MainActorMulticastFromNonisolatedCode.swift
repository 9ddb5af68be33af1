// expected-error: main actor-isolated static property 'tabBar' can not be referenced from a nonisolated context
// default-isolation MainActor: expected-error: main actor-isolated static property 'tabBar' can not be referenced from a nonisolated context
import Multicast

@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

@MainActor
enum AppEvents {
    static let tabBar = MulticastDelegate<any TabBarDelegate>()
}

nonisolated func backgroundWork() {
    AppEvents.tabBar.call { $0.tabBarDidSelect(tag: 1) }
}
