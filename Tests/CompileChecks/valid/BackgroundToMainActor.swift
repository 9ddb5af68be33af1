import Multicast

@MainActor
protocol ConnectivityObserver: AnyObject, Sendable {  // heard on the main actor, posted from anywhere
    func connectivityDidChange(online: Bool)
}

enum AppEvents {
    nonisolated static let connectivity = MulticastDelegate<any ConnectivityObserver>()
}

@MainActor
final class StatusBar: ConnectivityObserver {
    private(set) var isOnline = true

    init() {
        AppEvents.connectivity.add(self)  // on the main actor, or anywhere: the multicast is Sendable
    }

    func connectivityDidChange(online: Bool) { isOnline = online }
}

actor ConnectivityMonitor {
    private var online = true

    func update(online: Bool) async {
        self.online = online
        await MainActor.run {  // one hop: every screen hears the change in the same main-actor turn
            AppEvents.connectivity.call { $0.connectivityDidChange(online: online) }
        }
    }
}
