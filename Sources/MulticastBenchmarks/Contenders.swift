import Foundation
import Multicast
import MulticastChecks

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
    func register(_ receiver: Counter)
    func unregister(_ receiver: Counter)
}

// MARK: - Multicast

final class MulticastWeak: Registering, Sendable {
    static let name = "Multicast (weak)"
    let delegates = MulticastDelegate<any Receiver>()

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver) }
    }
    func callAll(_ value: Int) { delegates.call { $0.receive(value) } }
    func register(_ receiver: Counter) { delegates.add(receiver) }
    func unregister(_ receiver: Counter) { delegates.remove(receiver) }
}

final class MulticastStrong: Contender {
    static let name = "Multicast (.strong)"
    let delegates = MulticastDelegate<any Receiver>()

    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver, retention: .strong) }
    }
    func callAll(_ value: Int) { delegates.call { $0.receive(value) } }
}

// In an extension, so that the class does not become main-actor isolated: its nonisolated `receive` is the
// witness.
extension Counter: MainActorReceiver {}

/// Multicast called on the main actor, as UI code calls it: a `@MainActor` delegate protocol.
///
/// Unchecked: only the main thread uses it.
final class MulticastMainActor: MainActorContender, @unchecked Sendable {
    static let name = "Multicast (weak, @MainActor)"
    let delegates = MulticastDelegate<any MainActorReceiver>()

    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver) }
    }
    @MainActor func callAllOnMainActor(_ value: Int) {
        delegates.call { $0.receive(value) }
    }
}

// MARK: - NotificationCenter

let benchmarkNotification = Notification.Name("MulticastBenchmarks.event")

/// Block observers capturing `[weak receiver]`: how NotificationCenter is used without leaks.
///
/// Unchecked: `observers` is only used by the thread that registers (NotificationCenter itself is
/// thread-safe).
final class NotificationCenterWeak: Registering, @unchecked Sendable {
    static let name = "NotificationCenter [weak]"
    let center = NotificationCenter()
    var observers: [ObjectIdentifier: any NSObjectProtocol] = [:]

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { register(receiver) }
    }
    func callAll(_ value: Int) {
        center.post(name: benchmarkNotification, object: nil, userInfo: ["value": value])
    }
    func register(_ receiver: Counter) {
        observers[ObjectIdentifier(receiver)] = center.addObserver(
            forName: benchmarkNotification,
            object: nil,
            queue: nil
        ) { [weak receiver] notification in
            receiver?.receive(notification.userInfo!["value"] as! Int)
        }
    }
    func unregister(_ receiver: Counter) {
        if let observer = observers.removeValue(forKey: ObjectIdentifier(receiver)) {
            center.removeObserver(observer)
        }
    }
}

/// Block observers capturing `[weak receiver]`, posted without a `userInfo` payload: NotificationCenter at its
/// cheapest. The observers read the value from where the poster left it, as observers of an event without a
/// payload read the state that changed.
///
/// Unchecked: `observers` is only used by the thread that registers, and `value` by the thread that posts.
final class NotificationCenterWeakNoPayload: Contender, @unchecked Sendable {
    final class Value: @unchecked Sendable {
        var current = 0
    }

    static let name = "NotificationCenter [weak], no payload"
    let center = NotificationCenter()
    let value = Value()
    var observers: [any NSObjectProtocol] = []

    init(_ receivers: [Counter]) {
        for receiver in receivers {
            observers.append(
                center.addObserver(forName: benchmarkNotification, object: nil, queue: nil) {
                    [weak receiver, value] _ in
                    receiver?.receive(value.current)
                }
            )
        }
    }
    func callAll(_ value: Int) {
        self.value.current = value
        center.post(name: benchmarkNotification, object: nil)
    }
    deinit {
        for observer in observers { center.removeObserver(observer) }
    }
}

/// Block observers capturing the receiver strongly.
final class NotificationCenterStrong: Contender {
    static let name = "NotificationCenter (strong)"
    let center = NotificationCenter()
    var observers: [any NSObjectProtocol] = []

    init(_ receivers: [Counter]) {
        for receiver in receivers {
            observers.append(
                center.addObserver(forName: benchmarkNotification, object: nil, queue: nil) { notification in
                    receiver.receive(notification.userInfo!["value"] as! Int)
                }
            )
        }
    }
    func callAll(_ value: Int) {
        center.post(name: benchmarkNotification, object: nil, userInfo: ["value": value])
    }
    deinit {
        for observer in observers { center.removeObserver(observer) }
    }
}

// MARK: - Foundation's typed messages

// Foundation has these messages on Linux from Swift 6.2 on, and on Apple platforms from their 26 releases on;
// elsewhere their rows stay out of the tables.

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

// MARK: - The origin libraries' designs

/// SwiftMulticastProtocol's design: a strong array, a linear identity scan on add and remove, no lock.
final class SeedOneStyle: Registering {
    static let name = "Seed 1 style (strong array)"
    var notifiers: [any Receiver] = []

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { register(receiver) }
    }
    func callAll(_ value: Int) {
        for notifier in notifiers { notifier.receive(value) }
    }
    func register(_ receiver: Counter) {
        unregister(receiver)
        notifiers.append(receiver)
    }
    func unregister(_ receiver: Counter) {
        if let index = notifiers.firstIndex(where: { $0 === receiver }) {
            notifiers.remove(at: index)
        }
    }
}

/// DelegateNotificationCenter's design: weak boxes; each call builds a fresh array of the live objects (as
/// `NSHashTable.allObjects` does), walks it reversed and force-casts.
final class SeedTwoStyle: Registering {
    final class WeakBox {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    static let name = "Seed 2 style (weak boxes)"
    var boxes: [WeakBox] = []

    init() {}
    init(_ receivers: [Counter]) {
        for receiver in receivers { register(receiver) }
    }
    func callAll(_ value: Int) {
        let allObjects = boxes.compactMap { $0.object }
        for object in allObjects.reversed() {
            (object as! any Receiver).receive(value)
        }
    }
    func register(_ receiver: Counter) {
        boxes.append(WeakBox(receiver))
    }
    func unregister(_ receiver: Counter) {
        boxes.removeAll { $0.object === receiver }
    }
}

// MARK: - Floors

/// Floor (i): a strong `[any Receiver]` loop over objects that are never weakly referenced.
final class StrongFloor: Contender {
    static let name = "Floor (i): strong array"
    let receivers: [any Receiver]

    init(_ receivers: [Counter]) {
        self.receivers = receivers
    }
    func callAll(_ value: Int) {
        for receiver in receivers { receiver.receive(value) }
    }
}

/// Floor (ii): one in-place weak load per delegate, from `weak var` fields read through a pointer; no lock,
/// no snapshot. Nothing that holds delegates weakly can do less.
final class WeakFloor: Contender {
    struct WeakField {
        weak var receiver: (any Receiver)?
    }

    static let name = "Floor (ii): in-place weak loads"
    let fields: UnsafeMutablePointer<WeakField>
    let count: Int

    init(_ receivers: [Counter]) {
        count = receivers.count
        fields = .allocate(capacity: Swift.max(count, 1))
        for (index, receiver) in receivers.enumerated() {
            (fields + index).initialize(to: WeakField(receiver: receiver))
        }
    }
    func callAll(_ value: Int) {
        for index in 0..<count {
            if let receiver = fields[index].receiver {
                receiver.receive(value)
            }
        }
    }
    deinit {
        fields.deinitialize(count: count)
        fields.deallocate()
    }
}

/// Runs `body` on the main actor, which the benchmark's main thread is.
func onMainActor(_ body: @MainActor () -> Void) {
    MainActor.assumeIsolated(body)
}

/// Every contender of the call benchmarks, in table order.
let callContenders: [any Contender.Type] = {
    var contenders: [any Contender.Type] = [
        MulticastWeak.self, MulticastStrong.self, NotificationCenterWeak.self, NotificationCenterWeakNoPayload.self,
        NotificationCenterStrong.self, SeedOneStyle.self, SeedTwoStyle.self, StrongFloor.self, WeakFloor.self,
        MulticastMainActor.self,
    ]
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        contenders.append(MainActorMessageWeak.self)
    }
    return contenders
}()

/// The contenders of the add-and-remove benchmark.
let registeringContenders: [any Registering.Type] = [
    MulticastWeak.self, NotificationCenterWeak.self, SeedOneStyle.self, SeedTwoStyle.self,
]

// MARK: - Async delivery

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

/// Multicast's async `call`: the delegates one after another, on the caller's actor.
final class MulticastAsyncCall: AsyncContender {
    static let name = "Multicast async call (one after another)"
    let delegates = MulticastDelegate<any AsyncReceiver>()

    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver) }
    }
    func deliver(_ value: Int) async {
        await delegates.call { await $0.receive(value) }
    }
}

/// Multicast's `callConcurrently`: a child task per delegate, all awaited.
final class MulticastCallConcurrently: AsyncContender {
    static let name = "Multicast callConcurrently"
    let delegates = MulticastDelegate<any AsyncReceiver>()

    init(_ receivers: [Counter]) {
        for receiver in receivers { delegates.add(receiver) }
    }
    func deliver(_ value: Int) async {
        await delegates.callConcurrently { await $0.receive(value) }
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

/// The contenders of the async-delivery benchmark, in table order.
let asyncContenders: [any AsyncContender.Type] = {
    var contenders: [any AsyncContender.Type] = [MulticastAsyncCall.self, MulticastCallConcurrently.self]
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        contenders.append(AsyncMessageWeak.self)
    }
    return contenders
}()
