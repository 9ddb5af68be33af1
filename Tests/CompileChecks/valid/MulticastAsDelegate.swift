import Multicast

@MainActor
protocol PlayerDelegate: AnyObject {
    func playerDidStart(track: String)
    func playerShouldSkip(track: String) -> Bool
    func playerWillLoad(track: String) async
    func playerMayStop() throws
}

/// A type that, like most of UIKit and AppKit, has room for one delegate, held weakly.
@MainActor
final class Player {
    weak var delegate: (any PlayerDelegate)?

    func play(_ track: String) async throws {
        guard delegate?.playerShouldSkip(track: track) != true else { return }
        await delegate?.playerWillLoad(track: track)
        delegate?.playerDidStart(track: track)
        try delegate?.playerMayStop()
    }
}

extension MulticastDelegate: PlayerDelegate where Delegate == any PlayerDelegate {
    func playerDidStart(track: String) {
        call { $0.playerDidStart(track: track) }
    }

    func playerShouldSkip(track: String) -> Bool {
        contains { $0.playerShouldSkip(track: track) }  // skip if any delegate asks to
    }

    func playerWillLoad(track: String) async {
        await inTurn.call { await $0.playerWillLoad(track: track) }  // one after another, on the main actor
    }

    func playerMayStop() throws {
        try call { try $0.playerMayStop() }  // the first error stops the call, and is thrown
    }
}

@MainActor
final class NowPlayingScreen {
    let player = Player()
    private let playerDelegates = MulticastDelegate<any PlayerDelegate>()  // `player.delegate` is weak: kept here

    init(miniPlayer: any PlayerDelegate, history: any PlayerDelegate) {
        playerDelegates.add(miniPlayer)
        playerDelegates.add(history)
        player.delegate = playerDelegates
    }
}
