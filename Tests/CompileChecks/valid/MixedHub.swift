import Multicast

@MainActor
protocol TabBarDelegate: AnyObject {  // main-actor code only
    func tabBarDidSelect(tag: Int)
}

@MainActor
protocol ConnectivityObserver: AnyObject, Sendable {  // heard on the main actor, posted from anywhere
    func connectivityDidChange(online: Bool)
}

nonisolated protocol SyncService: AnyObject, Sendable {  // called on any thread, or all at once
    func synchronize() async throws
}

enum AppEvents {
    @MainActor static let tabBar = MulticastDelegate<any TabBarDelegate>()
    nonisolated static let connectivity = MulticastDelegate<any ConnectivityObserver>()
    nonisolated static let sync = MulticastDelegate<any SyncService>()
}

nonisolated func backgroundRefresh(online: Bool) async throws {
    await MainActor.run { AppEvents.connectivity.call { $0.connectivityDidChange(online: online) } }
    try await AppEvents.sync.concurrently.call { try await $0.synchronize() }
}

@MainActor
func userDidSelect(tag: Int) {
    AppEvents.tabBar.call { $0.tabBarDidSelect(tag: tag) }
}
