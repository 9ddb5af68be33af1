import Multicast

@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

@MainActor
enum AppEvents {
    static let tabBar = MulticastDelegate<any TabBarDelegate>()
}
