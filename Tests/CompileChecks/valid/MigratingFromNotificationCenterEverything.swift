// snippet.hide
import Multicast

// snippet.show
@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

@MainActor
protocol DocumentObserver: AnyObject {
    func documentDidSave(name: String)
}

/// Every event of the app. A protocol added to this list is a compile error in each type that adopts
/// `EveryEventObserver` until it implements the new events.
@MainActor
protocol EveryEventObserver: TabBarDelegate, DocumentObserver {}

@MainActor
enum AppEvents {
    static let tabBar = MulticastDelegate<any TabBarDelegate>()
    static let documents = MulticastDelegate<any DocumentObserver>()

    /// Adds `observer` to every multicast above: beside them, the one place to change with them.
    static func addToEveryEvent(_ observer: any EveryEventObserver, retention: Retention = .weak) {
        tabBar.add(observer, retention: retention)
        documents.add(observer, retention: retention)
    }
}

@MainActor
final class EventLogger: EveryEventObserver {
    func tabBarDidSelect(tag: Int) { print("tab", tag) }
    func documentDidSave(name: String) { print("saved", name) }
}

@MainActor
func applicationDidFinishLaunching() {
    AppEvents.addToEveryEvent(EventLogger(), retention: .strong)  // as `addObserver(forName: nil, ...)`
}
