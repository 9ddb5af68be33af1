// expected-error: static property 'tabBar' is not concurrency-safe because it is nonisolated global shared mutable state
// default-isolation MainActor: compiles
import Multicast

protocol TabBarNotificationDelegate: AnyObject {
    func tabBarDidSelect(with tag: Int)
}

class MyAppNotificationCenter {
    static var tabBar = MulticastDelegate<TabBarNotificationDelegate>()
}
