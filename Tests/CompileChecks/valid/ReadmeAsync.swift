import Multicast

protocol SyncService: AnyObject, Sendable {
    func synchronize() async throws
}

enum Services {
    static let sync = MulticastDelegate<any SyncService>()  // Sendable delegates: a global needs no actor
}

func synchronizeAll() async throws {
    try await Services.sync.call { try await $0.synchronize() }  // one after another, in order
    try await Services.sync.callConcurrently { try await $0.synchronize() }  // all at once
}
