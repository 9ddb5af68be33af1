// snippet.hide
import Multicast

@MainActor
protocol DownloadObserver: AnyObject, Sendable {
    func downloadDidFinish(_ file: String)
}

// snippet.show
final class AppHub: Sendable {  // main-actor-isolated under -default-isolation MainActor, unless marked
    nonisolated static let shared = AppHub()  // a default argument of nonisolated code must reach it
    nonisolated let downloads = MulticastDelegate<any DownloadObserver>()

    nonisolated init() {}  // tests make hubs of their own
}

actor DownloadEngine {
    private let hub: AppHub

    init(hub: AppHub = .shared) {  // unmarked: "main actor-isolated default value in a nonisolated context"
        self.hub = hub
    }

    func finish(_ file: String) async {
        await MainActor.run { hub.downloads.call { $0.downloadDidFinish(file) } }
    }
}
