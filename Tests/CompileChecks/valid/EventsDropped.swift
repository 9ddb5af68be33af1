// snippet.with: EventsForwarder.swift
import Multicast

@MainActor
final class CountedSignIns: SessionObserver {
    let continuation: EventContinuation<String>
    init(_ continuation: EventContinuation<String>) { self.continuation = continuation }

    func sessionDidStart(user: String) { continuation.yield(user) }
    func sessionDidEnd() { continuation.finish() }
}

@MainActor
func showSignIns(reloadingAfterDrops reload: () -> Void) async {
    let signIns = AppEvents.session.events(bufferingPolicy: .bufferingNewest(10), CountedSignIns.init)
    for await user in signIns {
        if signIns.takeDroppedCount() > 0 { reload() }  // older sign-ins were dropped before this one
        print(user, "signed in")
    }
}
