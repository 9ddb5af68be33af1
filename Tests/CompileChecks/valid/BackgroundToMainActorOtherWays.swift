// snippet.hide
import Multicast

@MainActor
protocol ConnectivityObserver: AnyObject, Sendable {  // heard on the main actor, posted from anywhere
    func connectivityDidChange(online: Bool)
}

enum AppEvents {
    nonisolated static let connectivity = MulticastDelegate<any ConnectivityObserver>()
}
// snippet.show
actor ConnectivityMonitor {
    func update(online: Bool) async {
        // A hop per delegate: each screen hears it in a main-actor turn of its own, in order.
        await AppEvents.connectivity.inTurn.call { await $0.connectivityDidChange(online: online) }
    }
}

// From a thread that cannot wait, such as a C library's callback: the screens hear it later, in a task.
nonisolated func connectivityCallback(online: Bool) {
    Task { @MainActor in
        AppEvents.connectivity.call { $0.connectivityDidChange(online: online) }
    }
}
