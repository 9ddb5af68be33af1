// expected-error: 'allSatisfy' is unavailable: ask async questions in turn: `await multicast.inTurn.allSatisfy
// default-isolation MainActor: expected-error: 'allSatisfy' is unavailable: ask async questions in turn: `await multicast.inTurn.allSatisfy
import Multicast

@MainActor
protocol CloseGuard: AnyObject {
    func mayClose() async -> Bool
}

@MainActor
func quit(_ closing: MulticastDelegate<any CloseGuard>) async -> Bool {
    await closing.allSatisfy { await $0.mayClose() }
}
