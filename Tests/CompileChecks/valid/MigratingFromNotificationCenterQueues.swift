// snippet.hide
import Multicast

@MainActor
protocol DownloadDelegate: AnyObject {
    func downloadDidFinish(_ file: String)
}

@MainActor
enum AppEvents {
    static let downloads = MulticastDelegate<any DownloadDelegate>()
}

// snippet.show
// Was: post(name: .downloadDidFinish, ...) from a background queue, observed with `queue: .main`.
func downloadDidFinish(_ file: String) async {
    await MainActor.run {
        AppEvents.downloads.call { $0.downloadDidFinish(file) }  // the compiler requires the main actor here
    }
}
