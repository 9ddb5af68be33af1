import Multicast

protocol SessionObserver: AnyObject {
    func sessionDidStart(user: String)
    func sessionDidEnd(user: String)
}

extension SessionObserver {
    func sessionDidStart(user: String) {}  // a default makes the event optional...
    func sessionDidEnd(user: String) {}
}

final class Greeting: SessionObserver {
    func sessionDidStart(_ user: String) {}  // ...and a mistyped label compiles, and is never called
}
