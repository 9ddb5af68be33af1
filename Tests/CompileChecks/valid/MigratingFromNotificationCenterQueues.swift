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
// Was: a serial queue that posts, with observers added with `queue: .main`.
nonisolated final class SyncEngine: Sendable {
    private let queue = DispatchQueue(label: "sync")  // serial: one sync at a time, its events in order

    func sync(_ id: Int, completion: @escaping @Sendable () -> Void) {
        queue.async {
            Self.post { $0.syncDidStart(id) }
            // ... the work ...
            Self.post { $0.syncDidFinish(id) }
            completion()  // runs after every screen has heard "finished", as after `post`
        }
    }

    /// As `post` did for `queue: .main` observers: runs them on the main queue and waits until they return.
    private static func post(_ event: @MainActor (any SyncObserver) -> Void) {
        dispatchPrecondition(condition: .notOnQueue(.main))  // a stop that says why, not a deadlock
        DispatchQueue.main.sync { AppEvents.sync.call(event) }
    }
}
