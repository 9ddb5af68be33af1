// snippet.hide
import Multicast

@MainActor
protocol SessionObserver: AnyObject {
    func sessionDidStart(user: String)
    func sessionDidEnd()
}

@MainActor
enum AppEvents {
    static let session = MulticastDelegate<any SessionObserver>()
}

/// Forwards each sign-in into the stream, and ends the stream when the session ends.
@MainActor
final class SignIns: SessionObserver {
    let continuation: AsyncStream<String>.Continuation

    init(_ continuation: AsyncStream<String>.Continuation) {
        self.continuation = continuation
    }

    func sessionDidStart(user: String) { continuation.yield(user) }
    func sessionDidEnd() { continuation.finish() }  // ends the `for await` loop
}

// snippet.show
@MainActor
func greetTheNextUser() async -> String? {
    // At most 10 wait; beyond that the oldest are dropped, and `yield` returns `.dropped(user)`.
    for await user in AppEvents.session.events(bufferingPolicy: .bufferingNewest(10), SignIns.init) {
        return user  // leaving the loop drops the sequence: the forwarder is removed and released
    }
    return nil
}
