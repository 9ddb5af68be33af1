// expected-error: 'call' is deprecated: replaced by 'inTurn.call\(_:\)'
// expected-error: 'callConcurrently' is deprecated: replaced by 'concurrently.call\(_:\)'
// expected-error: 'mapConcurrently' is deprecated: replaced by 'concurrently.map\(_:\)'
// default-isolation MainActor: expected-error: 'call' is deprecated: replaced by 'inTurn.call\(_:\)'
// The async members that moved to the `inTurn` and `concurrently` views still compile, with a warning (an
// error with -warnings-as-errors, as here) whose fix-it names the new spelling.
import Multicast

protocol Service: AnyObject, Sendable {
    func synchronize() async
    func status() async -> String
}

func refresh(_ services: MulticastDelegate<any Service>) async {
    await services.call { await $0.synchronize() }
    await services.callConcurrently { await $0.synchronize() }
    _ = await services.mapConcurrently { await $0.status() }
}
