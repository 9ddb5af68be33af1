import Multicast

nonisolated protocol SyncService: AnyObject, Sendable {  // nonisolated: off the main actor in any mode
    func synchronize() async throws
}

nonisolated enum Services {
    static let sync = MulticastDelegate<any SyncService>()  // Sendable delegates: a global needs no actor
}

func synchronizeAll() async throws {
    try await Services.sync.inTurn.call { try await $0.synchronize() }  // one after another, in order
    try await Services.sync.concurrently.call { try await $0.synchronize() }  // all at once
}
