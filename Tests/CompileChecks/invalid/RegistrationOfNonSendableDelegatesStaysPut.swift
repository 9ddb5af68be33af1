// expected-error: (sending|capture of).*(risks causing data races|non-Sendable)
// default-isolation MainActor: expected-error: (sending|capture of).*(risks causing data races|non-Sendable)
import Multicast

protocol Beeper: AnyObject {
    func beep()
}

final class Bell: Beeper {
    func beep() {}
}

func subscribeInTheBackground(_ observers: MulticastDelegate<any Beeper>.Registration) {
    Task.detached {
        observers.add(Bell(), retention: .strong)  // delegates that are not Sendable: the registration stays put
    }
}
