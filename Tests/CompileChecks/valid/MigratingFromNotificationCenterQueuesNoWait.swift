// snippet.hide
import Dispatch
import Multicast

@MainActor
protocol SyncObserver: AnyObject, Sendable {
    func syncDidStart(_ id: Int)
    func syncDidFinish(_ id: Int)
}

enum AppEvents {
    nonisolated static let sync = MulticastDelegate<any SyncObserver>()
}

// snippet.show
/// Runs the screens later, on the main queue, in the order posted; returns at once.
nonisolated func post(_ event: @escaping @MainActor (any SyncObserver) -> Void) {
    DispatchQueue.main.async { AppEvents.sync.call(event) }
}
