// snippet.with: EventsForwarder.swift
import Multicast

@MainActor
func greetTheNextUser() async -> String? {
    // At most 10 wait; beyond that the oldest are dropped, and `yield` returns `.dropped(user)`.
    for await user in AppEvents.session.events(bufferingPolicy: .bufferingNewest(10), SignIns.init) {
        return user  // leaving the loop drops the sequence: the forwarder is removed and released
    }
    return nil
}
