// Foundation's typed messages: `MainActorMessage`, posted on the main actor, and `AsyncMessage`, whose observers
// run in tasks. Foundation has them on Linux from Swift 6.2 on, and on Apple platforms from their 26 releases on;
// elsewhere their rows stay out of the tables.

import Foundation
import MulticastChecks

/// The name of the `MainActorMessage` contender, for code that runs where it may not exist.
let mainActorMessageName = "MainActorMessage [weak]"

/// The name of the `AsyncMessage` contender, for code that runs where it may not exist.
let asyncMessageName = "AsyncMessage [weak]"

/// What Foundation's messages are about; the benchmarks observe and post them without a subject.
final class EventSource {}

/// The event as a `NotificationCenter.MainActorMessage`: posted on the main actor, delivered at once.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
struct ReceiveMessage: NotificationCenter.MainActorMessage {
    typealias Subject = EventSource
    let value: Int
}

/// The event as a `NotificationCenter.AsyncMessage`: each observer runs in a task of its own.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
struct AsyncReceiveMessage: NotificationCenter.AsyncMessage {
    typealias Subject = EventSource
    let value: Int
}

/// Observers of a `MainActorMessage` capturing `[weak receiver]`, kept by their tokens; posted on the main
/// actor.
///
/// Unchecked: only the main thread uses it.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
final class MainActorMessageWeak: MainActorContender, @unchecked Sendable {
    static let name = mainActorMessageName
    let center = NotificationCenter()
    var tokens: [NotificationCenter.ObservationToken] = []

    init(_ receivers: [Counter]) {
        for receiver in receivers {
            tokens.append(
                center.addObserver(of: nil, for: ReceiveMessage.self) { [weak receiver] message in
                    receiver?.receive(message.value)
                }
            )
        }
    }
    @MainActor func callAllOnMainActor(_ value: Int) {
        center.post(ReceiveMessage(value: value))
    }
}

/// Observers of an `AsyncMessage` capturing `[weak receiver]`, kept by their tokens. `post` returns before
/// the observers run, each in a task of its own, so the contender counts them in: what a caller that needs
/// to know when all have run must write.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
final class AsyncMessageWeak: AsyncContender {
    static let name = asyncMessageName
    let center = NotificationCenter()
    let arrivals = Arrivals()
    let count: Int
    let tokens: [NotificationCenter.ObservationToken]

    init(_ receivers: [Counter]) {
        count = receivers.count
        tokens = receivers.map { [center, arrivals] receiver in
            center.addObserver(of: nil, for: AsyncReceiveMessage.self) { [weak receiver] message in
                receiver?.receive(message.value)
                arrivals.arrive()
            }
        }
    }
    func deliver(_ value: Int) async {
        await withUnsafeContinuation { continuation in
            arrivals.expect(count, then: continuation)
            center.post(AsyncReceiveMessage(value: value))
        }
    }
}

/// Counts observers as they finish, and resumes the waiting caller when the last one has.
final class Arrivals: @unchecked Sendable {
    private let lock = CheckLock()
    private var remaining = 0
    private var waiting: UnsafeContinuation<Void, Never>?

    func expect(_ count: Int, then continuation: UnsafeContinuation<Void, Never>) {
        lock.withLock {
            remaining = count
            waiting = continuation
        }
    }

    func arrive() {
        let finished: UnsafeContinuation<Void, Never>? = lock.withLock {
            remaining -= 1
            guard remaining == 0 else { return nil }
            defer { waiting = nil }
            return waiting
        }
        finished?.resume()
    }
}
