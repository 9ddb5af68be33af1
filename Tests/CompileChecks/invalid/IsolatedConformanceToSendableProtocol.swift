// expected-error: cannot form main actor-isolated conformance of 'StatusBar' to SendableMetatype-inheriting protocol 'ConnectivityObserver'
// default-isolation MainActor: expected-error: cannot form main actor-isolated conformance of 'StatusBar' to SendableMetatype-inheriting protocol 'ConnectivityObserver'
import Multicast

protocol ConnectivityObserver: AnyObject, Sendable {
    func connectivityDidChange(online: Bool)
}

@MainActor
final class StatusBar {
    var isOnline = true
}

extension StatusBar: @MainActor ConnectivityObserver {
    func connectivityDidChange(online: Bool) { isOnline = online }
}
