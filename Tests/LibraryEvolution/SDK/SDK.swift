// An SDK as a vendor ships it in a binary framework: built with library evolution against Multicast's module
// interfaces alone, with a multicast of observers in its public API. `Scripts/check-library-evolution.sh` builds
// it and the app in `Client/`, which uses it.
import Multicast

/// What an app implements to hear that a download finished.
public protocol DownloadObserver: AnyObject {
    /// Called once the download of `file` has finished.
    func downloadDidFinish(_ file: String)
}

/// The SDK's service: it downloads files, and tells its observers of each one that finishes.
public final class Downloader {
    /// Every observer of the downloads, which the SDK calls, and which an app may add to, remove from and list.
    public let observers = MulticastDelegate<any DownloadObserver>()

    /// Where an app adds and removes observers, without being able to call them.
    public var registration: MulticastDelegate<any DownloadObserver>.Registration {
        observers.registration
    }

    /// Creates a downloader with no observers.
    public init() {}

    /// Finishes the download of `file`, and tells every observer, in the order they were added. Inlined into the
    /// app, as the multicast's `call` is into the SDK's code.
    @inlinable
    public func finish(_ file: String) {
        observers.call { $0.downloadDidFinish(file) }
    }

    /// Finishes the download of `file` from the SDK's own binary, which calls the multicast compiled there.
    public func finishInSDK(_ file: String) {
        observers.call { $0.downloadDidFinish(file) }
    }
}
