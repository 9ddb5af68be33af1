import Multicast

protocol DownloadObserver: AnyObject {
    nonisolated(nonsending) func downloadDidFinish(_ file: String) async
}

actor DownloadManager {
    let observers = MulticastDelegate<any DownloadObserver>()
    private var finished: [String] = []

    func finish(_ file: String) async {
        finished.append(file)
        await observers.inTurn.call { observer in
            await observer.downloadDidFinish(file)  // on this actor, one observer after another
        }
    }
}

@MainActor
final class DownloadsScreen {
    let observers = MulticastDelegate<any DownloadObserver>()
    var badge = 0

    func show(_ file: String) async {
        await observers.inTurn.call { observer in
            badge += 1  // main-actor state, no await: the body runs on the main actor
            await observer.downloadDidFinish(file)
        }
    }
}
