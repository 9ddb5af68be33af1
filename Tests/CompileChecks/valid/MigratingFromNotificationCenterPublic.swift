// snippet.hide
import Multicast

// snippet.show
@MainActor
public protocol PlaybackObserver: AnyObject {
    func playbackDidStart(track: String)
}

public typealias PlaybackObservers = MulticastDelegate<any PlaybackObserver>.Registration  // shorter in API

@MainActor
public final class MiniPlayer {
    private var title = ""
    private let forwarder = Forwarder()  // conforms in its place, so that its handler stays private

    public init(observing playback: PlaybackObservers) {
        forwarder.owner = self
        playback.add(forwarder)  // held weakly, and owned by the player
    }

    private func playbackDidStart(track: String) { title = track }

    private final class Forwarder: PlaybackObserver {
        weak var owner: MiniPlayer?
        func playbackDidStart(track: String) { owner?.playbackDidStart(track: track) }
    }
}
