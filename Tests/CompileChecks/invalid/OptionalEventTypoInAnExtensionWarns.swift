// expected-error: nearly matches defaulted requirement 'sessionDidStart\(user:\)'
// default-isolation MainActor: expected-error: nearly matches defaulted requirement 'sessionDidStart\(user:\)'
import Multicast

protocol SessionObserver: AnyObject {
    func sessionDidStart(user: String)
}

extension SessionObserver {
    func sessionDidStart(user: String) {}
}

final class Greeting {}

extension Greeting: SessionObserver {
    func sessionDidStrat(user: String) {}  // a warning, made an error here by -warnings-as-errors
}
