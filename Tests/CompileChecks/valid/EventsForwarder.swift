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

@MainActor
func greetEveryone() async {
    let signIns = AppEvents.session.events(bufferingPolicy: .unbounded, SignIns.init)  // added: nothing missed
    for await user in signIns {
        print("Hello,", user)
    }
    // Here the session has ended, or the task was cancelled: the forwarder is removed.
}
