// snippet.hide
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
actor SyncService {
    private var last: Task<Void, Never>?  // the sync before this one: each waits for it, so none interleave

    func sync(_ id: Int) async {
        let previous = last
        let current = Task {
            await previous?.value
            await run(id)
        }
        last = current
        await current.value  // returns after the screens have heard "finished"
    }

    private func run(_ id: Int) async {
        await MainActor.run { AppEvents.sync.call { $0.syncDidStart(id) } }  // waits for the screens
        // ... the work, which may suspend ...
        await MainActor.run { AppEvents.sync.call { $0.syncDidFinish(id) } }
    }
}
