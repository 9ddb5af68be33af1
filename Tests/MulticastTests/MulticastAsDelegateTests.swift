import Multicast
import MulticastChecks
import Testing

/// The delegate protocol of a type that has room for one delegate.
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

// The multicast stands in for the one delegate, and forwards each requirement to its own delegates.
extension MulticastDelegate: PlayerDelegate where Delegate == any PlayerDelegate {
    func playerDidStart(track: String) {
        call { $0.playerDidStart(track: track) }
    }

    func playerShouldSkip(track: String) -> Bool {
        contains { $0.playerShouldSkip(track: track) }
    }

    func playerWillLoad(track: String) async {
        await inTurn.call { await $0.playerWillLoad(track: track) }
    }

    func playerMayStop() throws {
        try call { try $0.playerMayStop() }
    }
}

/// Logs what it is told, may ask to skip, and may refuse to stop.
@MainActor
final class PlayerRecorder: PlayerDelegate {
    let name: String
    let log: CallLog
    var skips = false
    var refusesToStop = false

    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
    }

    func playerDidStart(track: String) { log.append("\(name) started \(track)") }
    func playerShouldSkip(track: String) -> Bool { skips }

    func playerWillLoad(track: String) async {
        await Task.yield()
        log.append("\(name) loads \(track)")
    }

    func playerMayStop() throws {
        log.append("\(name) may stop")
        if refusesToStop { throw Stop(name: name) }
    }
}

@MainActor
@Suite struct MulticastAsDelegateTests {
    let log = CallLog()

    @Test func theOneDelegateReachesEveryDelegateOfTheMulticastInOrder() async throws {
        let player = Player()
        let delegates = MulticastDelegate<any PlayerDelegate>()
        let (a, b) = (PlayerRecorder("a", log: log), PlayerRecorder("b", log: log))
        delegates.add(a)
        delegates.add(b)
        player.delegate = delegates

        try await player.play("intro")

        #expect(
            log.calls == [
                "a loads intro", "b loads intro", "a started intro", "b started intro", "a may stop", "b may stop",
            ])
    }

    @Test func anAnswerComesFromTheDelegatesOfTheMulticast() async throws {
        let player = Player()
        let delegates = MulticastDelegate<any PlayerDelegate>()
        let (a, b) = (PlayerRecorder("a", log: log), PlayerRecorder("b", log: log))
        b.skips = true
        delegates.add(a)
        delegates.add(b)
        player.delegate = delegates

        try await player.play("ad")

        #expect(log.calls.isEmpty)  // b asked to skip it
    }

    @Test func theFirstErrorOfADelegateIsThrownToTheCaller() async {
        let player = Player()
        let delegates = MulticastDelegate<any PlayerDelegate>()
        let recorders = ["a", "b", "c"].map { PlayerRecorder($0, log: log) }
        defer { extendLifetime(recorders) }
        recorders[1].refusesToStop = true
        for recorder in recorders { delegates.add(recorder) }
        player.delegate = delegates

        await #expect(throws: Stop(name: "b")) { try await player.play("intro") }
        #expect(log.calls.filter { $0.hasSuffix("may stop") } == ["a may stop", "b may stop"])
    }

    @Test func aWeakDelegatePropertyDoesNotKeepTheMulticastAlive() {
        let player = Player()
        let recorder = PlayerRecorder("a", log: log)
        do {
            let delegates = MulticastDelegate<any PlayerDelegate>()  // whoever owns this keeps it alive
            delegates.add(recorder)
            player.delegate = delegates
            #expect(player.delegate != nil)
        }
        #expect(player.delegate == nil)
    }

    // An exit test, which Swift Testing has on these systems only (not on iOS, tvOS, watchOS or visionOS).
    #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
    @Test func aMulticastAddedToItselfIsRefusedWithAMessageThatSaysWhatHappened() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let delegates = MulticastDelegate<any PlayerDelegate>()
                delegates.add(delegates)
                delegates.playerDidStart(track: "intro")  // without the refusal, this call would recur without end
            }
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("MulticastDelegate<PlayerDelegate>: the multicast was added to itself"))
        #expect(message.contains("Add the objects that should receive the events to it"))
    }
    #endif
}
