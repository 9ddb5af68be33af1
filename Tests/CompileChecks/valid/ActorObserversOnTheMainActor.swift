import Multicast

@MainActor
protocol DownloadProgressObserver: AnyObject, Sendable {
    func downloadDidProgress(_ file: String, percent: Int)
}

actor DownloadManager {
    nonisolated let observers = MulticastDelegate<any DownloadProgressObserver>()  // Sendable: no await to reach
    private var done: [String: Int] = [:]

    func receive(_ file: String, percent: Int) async {
        done[file] = percent
        await MainActor.run {
            observers.call { $0.downloadDidProgress(file, percent: percent) }
        }
    }
}

@MainActor
final class DownloadsScreen: DownloadProgressObserver {
    private(set) var progress: [String: Int] = [:]

    init(manager: DownloadManager) {
        manager.observers.add(self)  // no await: the actor's multicast is nonisolated
    }

    func downloadDidProgress(_ file: String, percent: Int) { progress[file] = percent }
}
