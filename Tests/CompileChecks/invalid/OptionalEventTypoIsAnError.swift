// expected-error: has different argument labels from those required by protocol 'SessionStartObserver'
// default-isolation MainActor: expected-error: has different argument labels from those required by protocol 'SessionStartObserver'
import Multicast

protocol SessionStartObserver: AnyObject {
    func sessionDidStart(user: String)
}

final class Greeting: SessionStartObserver {
    func sessionDidStart(_ user: String) {}  // a typo is a compile error when the event is required
}
