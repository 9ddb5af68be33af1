// expected-error: non-class type 'Badge' cannot conform to class protocol 'MessageDelegate'
// default-isolation MainActor: expected-error: non-class type 'Badge' cannot conform to class protocol 'MessageDelegate'
import Multicast

protocol MessageDelegate: AnyObject {  // class-bound: the compiler refuses value types
    func newMessageReceived(message: String)
}

struct Badge: MessageDelegate {
    func newMessageReceived(message: String) {}
}
