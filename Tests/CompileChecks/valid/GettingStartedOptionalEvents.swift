import Multicast

protocol SessionStartObserver: AnyObject {
    func sessionDidStart(user: String)
}

protocol SessionEndObserver: AnyObject {
    func sessionDidEnd(user: String)
}

final class SessionEvents {
    let starts = MulticastDelegate<any SessionStartObserver>()
    let ends = MulticastDelegate<any SessionEndObserver>()
}

final class Greeting: SessionStartObserver {  // only the events it wants, each one required
    init(events: SessionEvents) {
        events.starts.add(self)
    }

    func sessionDidStart(user: String) {}  // `sessionDidStart(_ user:)` would not compile
}
