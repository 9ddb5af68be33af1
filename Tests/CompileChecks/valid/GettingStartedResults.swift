// snippet.hide
import Multicast

// snippet.show
@MainActor
protocol TabBarDelegate: AnyObject {
    var title: String { get }
    var badge: Int { get }
    func tabBarDidSelect(tag: Int)
    func tabBarShouldSelect(tag: Int) -> Bool
}

@MainActor
func summary(of tabBar: MulticastDelegate<any TabBarDelegate>) -> String {
    let titles = tabBar.map(\.title)  // in the order the delegates were added
    let unread = tabBar.reduce(0) { $0 + $1.badge }
    let mayLeave = tabBar.allSatisfy { $0.tabBarShouldSelect(tag: 2) }
    let busy = tabBar.first { $0.badge > 99 }?.title ?? "none"
    return "\(titles): \(unread) unread, may leave: \(mayLeave), busiest: \(busy)"
}
