// snippet.script
import Multicast

protocol TabBarDelegate: AnyObject {
    var title: String { get }
    func tabBarDidSelect(tag: Int)
}

final class Screen: TabBarDelegate {
    let title: String
    init(title: String) { self.title = title }
    func tabBarDidSelect(tag: Int) { print(title, "sees tab", tag) }
}

let tabBar = MulticastDelegate<any TabBarDelegate>()
let screens = [Screen(title: "Chats"), Screen(title: "Contacts"), Screen(title: "Settings")]
for screen in screens { tabBar.add(screen) }  // held weakly: no remove needed in deinit

tabBar.call { $0.tabBarDidSelect(tag: 2) }  // Chats, Contacts, Settings: the order they were added
let titles = tabBar.map(\.title)  // results from the delegates, typed: no casts
