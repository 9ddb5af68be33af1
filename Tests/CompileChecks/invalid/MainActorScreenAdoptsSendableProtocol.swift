// expected-error: conformance of 'StatusBar' to protocol 'ConnectivityObserver' crosses into main actor-isolated code
// default-isolation MainActor: compiles
import Multicast

protocol ConnectivityObserver: AnyObject, Sendable {  // not @MainActor: its requirement may be called anywhere
    func connectivityDidChange(online: Bool)
}

@MainActor
final class StatusBar: ConnectivityObserver {
    var isOnline = true
    func connectivityDidChange(online: Bool) { isOnline = online }
}
