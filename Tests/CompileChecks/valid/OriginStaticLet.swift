import Multicast

@MainActor
protocol TabBarNotificationDelegate: AnyObject {
    func tabBarDidSelect(with tag: Int)
}

@MainActor
enum MyAppNotificationCenter {
    static let tabBar = MulticastDelegate<any TabBarNotificationDelegate>()
}
