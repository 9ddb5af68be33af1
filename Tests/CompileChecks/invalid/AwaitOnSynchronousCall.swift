// expected-error: no 'async' operations occur within 'await' expression
// default-isolation MainActor: expected-error: no 'async' operations occur within 'await' expression
import Multicast

protocol Listener: AnyObject {
    func hear()
}

func notify(_ listeners: MulticastDelegate<any Listener>) async {
    await listeners.call { $0.hear() }  // a synchronous closure picks the synchronous call
}
