// What every contender is: the delegate protocols, the counting delegate, and the protocols of the contenders.

/// The delegate protocol every contender calls. Sendable, so that the churn benchmark can share a multicast.
protocol Receiver: AnyObject, Sendable {
    func receive(_ value: Int)
}

/// The delegate protocol of the main-actor contenders: what UI code declares.
@MainActor
protocol MainActorReceiver: AnyObject {
    func receive(_ value: Int)
}

/// The delegate protocol of the async contenders.
protocol AsyncReceiver: AnyObject, Sendable {
    func receive(_ value: Int) async
}

/// A delegate that adds up what it receives, so every sample can check that each call really happened.
///
/// Unchecked: a counter is called by one thread or task at a time (the caller of a contender, or the task
/// that an async contender runs it on, which the caller awaits before the next call).
final class Counter: Receiver, AsyncReceiver, @unchecked Sendable {
    var total = 0

    @inline(never)
    func receive(_ value: Int) {
        total &+= value
    }
}

// In an extension, so that the class does not become main-actor isolated: its nonisolated `receive` is the
// witness.
extension Counter: MainActorReceiver {}

/// One way of calling many delegates: what a benchmark measures.
protocol Contender: AnyObject, SendableMetatype {
    /// The name in the table.
    static var name: String { get }

    /// Registers `receivers`; the contender holds them as it would in an app (weakly, where it can).
    init(_ receivers: [Counter])

    /// Calls `receive(value)` on every registered receiver once.
    func callAll(_ value: Int)
}

/// Contenders that call on the main actor, as UI code does. A sample enters the main actor once, around its
/// loop, as code that already runs there would; each call of the loop is still a dynamic call, as for the
/// other contenders.
protocol MainActorContender: Contender, Sendable {
    /// Calls `receive(value)` on every registered receiver once, from the main actor.
    @MainActor func callAllOnMainActor(_ value: Int)
}

extension MainActorContender {
    func callAll(_ value: Int) {
        onMainActor { callAllOnMainActor(value) }
    }
}

/// Calls `contender.callAll(value)` `repetitions` times: what a sample times.
func callRepeatedly(_ contender: any Contender, _ value: Int, _ repetitions: Int) {
    if let contender = contender as? any MainActorContender {
        onMainActor {
            for _ in 0..<repetitions { contender.callAllOnMainActor(value) }
        }
    } else {
        for _ in 0..<repetitions { contender.callAll(value) }
    }
}

/// Contenders that can also register and unregister one delegate at a time.
protocol Registering: Contender {
    init()
    /// Makes what registering `receivers` needs besides them, before a sample's clock starts, and returns the
    /// delegates that a call reaches once they are registered, for the sample's check.
    func prepare(_ receivers: [Counter]) -> [Counter]
    func register(_ receiver: Counter)
    func unregister(_ receiver: Counter)
}

extension Registering {
    /// Nothing to make: the receivers are the delegates.
    func prepare(_ receivers: [Counter]) -> [Counter] { receivers }
}

/// A contender with no delegates (a generic function, so that the existential metatype is opened).
func makeEmpty<C: Registering>(_ type: C.Type) -> any Registering {
    C()
}

/// One way of running async code in every delegate: what the async-delivery benchmark measures, from the call
/// until every delegate has run.
protocol AsyncContender: AnyObject, Sendable {
    /// The name in the table.
    static var name: String { get }

    /// Registers `receivers`, held weakly.
    init(_ receivers: [Counter])

    /// Runs `receive(value)` on every registered receiver once, and returns when all have run.
    func deliver(_ value: Int) async
}

/// Runs `body` on the main actor, which the benchmark's main thread is.
func onMainActor(_ body: @MainActor () -> Void) {
    MainActor.assumeIsolated(body)
}
