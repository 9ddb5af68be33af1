// expected-error: value of type 'MulticastDelegate<any Beeper>.Registration' has no member 'call'
// default-isolation MainActor: expected-error: value of type 'MulticastDelegate<any Beeper>.Registration' has no member 'call'
import Multicast

protocol Beeper: AnyObject {
    func beep()
}

func ring(_ observers: MulticastDelegate<any Beeper>.Registration) {
    observers.call { $0.beep() }  // a registration adds and removes; it cannot call
}
