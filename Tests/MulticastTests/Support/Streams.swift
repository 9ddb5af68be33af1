import MulticastChecks
import Testing

/// The elements that a reading task has received, and whether it has stopped: a sequence ended, or it read
/// as many as it was asked for.
final class Received<Element: Sendable>: Sendable {
    private let state = Guarded<(elements: [Element], hasStopped: Bool)>(([], false))

    var elements: [Element] { state.value.elements }
    var hasStopped: Bool { state.value.hasStopped }

    func append(_ element: Element) {
        state.withValue { $0.elements.append(element) }
    }

    func stop() {
        state.withValue { $0.hasStopped = true }
    }
}

/// Reads `sequence` until it ends or `limit` elements have come, in a task on the caller's actor, and returns
/// what came; records an issue if that takes more than `seconds`, and then cancels the reading task and returns
/// what came so far, so that a sequence that never ends fails the test instead of hanging it.
func read<Events: AsyncSequence>(
    _ sequence: Events,
    upTo limit: Int = .max,
    within seconds: Double = 300,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> [Events.Element] where Events.Failure == Never, Events.Element: Sendable {
    let received = Received<Events.Element>()
    let reader = Task {
        _ = isolation  // the task runs on the caller's actor, where `sequence` may be used
        var iterator = sequence.makeAsyncIterator()
        while received.elements.count < limit, let element = await iterator.next(isolation: isolation) {
            received.append(element)
        }
        received.stop()
    }
    if !(await eventually(within: seconds) { received.hasStopped }) {
        Issue.record(
            "the sequence neither ended nor gave \(limit) elements in \(seconds) s", sourceLocation: sourceLocation)
        reader.cancel()
    }
    return received.elements
}
