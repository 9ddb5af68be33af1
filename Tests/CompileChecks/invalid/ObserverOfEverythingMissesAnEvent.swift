// expected-error: type 'EventLogger' does not conform to protocol 'DocumentObserver'
// default-isolation MainActor: expected-error: type 'EventLogger' does not conform to protocol 'DocumentObserver'
import Multicast

@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

@MainActor
protocol DocumentObserver: AnyObject {  // added to the list below after the logger was written
    func documentDidSave(name: String)
}

@MainActor
protocol EveryEventObserver: TabBarDelegate, DocumentObserver {}

@MainActor
final class EventLogger: EveryEventObserver {
    func tabBarDidSelect(tag: Int) { print("tab", tag) }
}
