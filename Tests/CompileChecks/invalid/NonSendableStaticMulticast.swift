// expected-error: static property 'listeners' is not concurrency-safe because non-'Sendable' type 'MulticastDelegate<any Listener>'
// default-isolation MainActor: compiles
import Multicast

protocol Listener: AnyObject {
    func hear()
}

enum Events {
    static let listeners = MulticastDelegate<any Listener>()
}
