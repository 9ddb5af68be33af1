import Multicast

nonisolated protocol SyncService: AnyObject, Sendable {
    var name: String { get }
    func synchronize() async throws
}

nonisolated enum Services {
    // The delegates are Sendable, so the multicast is too: a global that needs no actor.
    static let sync = MulticastDelegate<any SyncService>()
}

func synchronizeEverything() async throws -> [String] {
    try await Services.sync.concurrently.call { try await $0.synchronize() }  // all at once
    return await Services.sync.concurrently.map { $0.name }  // answers in the order they were added
}

func fromAnyThread() {
    Task.detached {
        Services.sync.call { print($0.name) }
    }
}
