// expected-error: sending value of non-Sendable type 'any DownloadObserver' risks causing data races
// default-isolation MainActor: expected-error: sending value of non-Sendable type 'any DownloadObserver' risks causing data races
import Multicast

protocol DownloadObserver: AnyObject {
    func downloadDidFinish(_ file: String) async  // runs off the actor: the observer would be sent there
}

actor DownloadManager {
    let observers = MulticastDelegate<any DownloadObserver>()

    func finish(_ file: String) async {
        await observers.inTurn.call { await $0.downloadDidFinish(file) }
    }
}
