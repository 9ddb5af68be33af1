import Foundation
import MulticastChecks

/// The build this run measures: a debug build runs only the call scenarios.
#if DEBUG
let build = "debug"
#else
let build = "release"
#endif

/// How long a run may take, and how carefully it measures.
struct Settings {
    var samples: Int
    var sampleNanoseconds: UInt64
    var callSizes: [Int]
    var registrationSizes: [Int]
    /// Rounds of each churn contender, how long each round runs, and at which sizes.
    var churnRounds: Int
    var churnNanoseconds: UInt64
    var churnSizes: [Int]
    /// How long the churn runs before memory is sampled.
    var churnMemoryNanoseconds: UInt64
    /// Whose heap allocations per call to count with valgrind (about a second a count), at which sizes.
    var allocationContenders: [any Contender.Type]
    var allocationSizes: [Int]

    static let full = Settings(
        samples: 15,
        sampleNanoseconds: 8_000_000,
        callSizes: [1, 10, 100, 1000],
        registrationSizes: [1000, 10_000, 100_000],
        churnRounds: 5,
        churnNanoseconds: 250_000_000,
        churnSizes: [1000, 10_000],
        churnMemoryNanoseconds: 10_000_000_000,
        allocationContenders: callContenders,
        allocationSizes: [1, 10, 100, 1000]
    )

    static let quick = Settings(
        samples: 5,
        sampleNanoseconds: 2_000_000,
        callSizes: [1, 10, 100, 1000],
        registrationSizes: [1000, 10_000, 100_000],
        churnRounds: 1,
        churnNanoseconds: 100_000_000,
        churnSizes: [1000, 10_000],
        churnMemoryNanoseconds: 500_000_000,
        allocationContenders: [MulticastWeak.self, MulticastStrong.self],
        allocationSizes: [1, 1000]
    )
}

/// `call` cost: nanoseconds per delegate call (per call when `size` is 0), for every contender.
func measureCalls(size: Int, settings: Settings) -> [String: Figure] {
    let contenders = callContenders.map { type -> (String, any Contender, [Counter]) in
        let receivers = (0..<size).map { _ in Counter() }  // each contender its own, never shared
        return (type.name, type.init(receivers), receivers)
    }
    let value = Int.random(in: 1...3)  // not a constant the optimizer could fold
    let measurements = contenders.map { name, contender, receivers in
        var expected = 0
        let repetitions = calibrate(target: settings.sampleNanoseconds) { repetitions in
            callRepeatedly(contender, value, repetitions)
            expected += repetitions * value
        }
        return { () -> Double in
            let start = now()
            callRepeatedly(contender, value, repetitions)
            let elapsed = now() - start
            expected += repetitions * value
            for receiver in receivers {
                check(receiver.total == expected, "\(name) at N = \(size): a delegate missed calls")
            }
            return Double(elapsed) / Double(repetitions * Swift.max(size, 1))
        }
    }
    let figures = interleave(samples: settings.samples, measurements)
    withExtendedLifetime(contenders) {}
    return Dictionary(uniqueKeysWithValues: zip(contenders.map(\.0), figures))
}

/// Add then remove `size` distinct delegates: nanoseconds per operation (an add or a remove).
func measureRegistration(size: Int, settings: Settings) -> [String: Figure] {
    let receivers = (0..<size).map { _ in Counter() }
    var random = SystemRandomNumberGenerator()
    let removalOrder = receivers.shuffled(using: &random)
    // The linear-scan designs are quadratic: past 10k they would run for minutes.
    let contenders = registeringContenders.filter {
        size <= 10_000 || [MulticastWeak.name, NotificationCenterWeak.name].contains($0.name)
    }
    let samples = size >= 100_000 ? Swift.max(3, settings.samples / 3) : settings.samples
    let measurements = contenders.map { (type: any Registering.Type) -> () -> Double in
        return { () -> Double in
            let contender = makeEmpty(type)
            let start = now()
            for receiver in receivers { contender.register(receiver) }
            for receiver in removalOrder { contender.unregister(receiver) }
            let elapsed = now() - start
            contender.callAll(1)
            check(receivers.allSatisfy { $0.total == 0 }, "\(type.name): a removed delegate was called")
            return Double(elapsed) / Double(2 * size)
        }
    }
    let figures = interleave(samples: samples, measurements)
    return Dictionary(uniqueKeysWithValues: zip(contenders.map { $0.name }, figures))
}

/// Heap bytes per registered delegate, with `size` delegates.
///
/// The receivers are weakly referenced before the count starts, so the figure leaves out the side table
/// that the Swift runtime allocates for any object the first time something references it weakly: that
/// cost is the object's, whoever holds the first weak reference.
func measureMemory(size: Int) -> [String: Double] {
    var results: [String: Double] = [:]
    for type in callContenders {
        let receivers = (0..<size).map { _ in Counter() }
        let weakReferences = WeakFloor(receivers)  // creates every receiver's side table
        let before = heapBytesInUse()
        let contender = type.init(receivers)
        let after = heapBytesInUse()
        withExtendedLifetime((receivers, contender, weakReferences)) {}
        results[type.name] = Double(after - before) / Double(size)
    }
    return results
}

/// What one contender did under churn: one thread calling, another removing and re-adding delegates.
struct ChurnFigures: Codable {
    /// Delegate calls per second made by the calling thread, one sample per round.
    var calls = Figure()
    /// Remove-then-add pairs per second made by the other thread, one sample per round (none when quiet).
    var pairs = Figure()
}

/// One thread calls a contender of `size` live weak delegates in a loop while another removes a random
/// registered delegate and adds it back, as fast as it can; rounds of each contender alternate.
func measureChurn(size: Int, settings: Settings) -> [String: ChurnFigures] {
    let receivers = (0..<size).map { _ in Counter() }
    let contenders = churnContenders.map { ($0.name, $0.make(receivers), $0.churning) }
    var figures: [String: ChurnFigures] = [:]
    for round in 0..<settings.churnRounds {
        for offset in contenders.indices {
            let (name, contender, churning) = contenders[(round + offset) % contenders.count]
            let before = receivers.reduce(0) { $0 + $1.total }
            let (seconds, pairs) = churn(
                contender, receivers, churning: churning, nanoseconds: settings.churnNanoseconds)
            let calls = receivers.reduce(0) { $0 + $1.total } - before
            check(calls > 0, "\(name) at N = \(size): no delegate was called under churn")
            figures[name, default: ChurnFigures()].calls.samples.append(Double(calls) / seconds)
            if churning { figures[name, default: ChurnFigures()].pairs.samples.append(Double(pairs) / seconds) }
        }
    }
    for (_, contender, _) in contenders { check(isExact(contender, receivers), "a delegate was lost under churn") }
    return figures
}

/// Runs the calling loop on this thread for `nanoseconds`, with a removing thread if `churning`; returns the
/// seconds it ran and the pairs the removing thread made.
func churn(
    _ contender: any Registering & Sendable,
    _ receivers: [Counter],
    churning: Bool,
    nanoseconds: UInt64,
    whileRunning sample: () -> Void = {}
) -> (seconds: Double, pairs: Int) {
    let stop = Flag()
    let pairs = Delivered<Int>()
    if churning {
        let targets = receivers.map(UnsafeReceiver.init)
        Thread {
            var random = SplitMix64(seed: UInt64(targets.count))
            var count = 0
            while count % 64 != 0 || !stop.isSet {
                let receiver = targets[random.below(targets.count)].receiver
                contender.unregister(receiver)
                contender.register(receiver)
                count += 1
            }
            pairs.set(count)
        }.start()
    }
    let start = now()
    var samples = 0
    while now() - start < nanoseconds {
        contender.callAll(1)
        // Five samples in the last twentieth of the run, while the other thread still churns.
        if samples < 5 && now() - start >= nanoseconds - nanoseconds / 20 + UInt64(samples) * nanoseconds / 100 {
            sample()
            samples += 1
        }
    }
    let seconds = Double(now() - start) / 1e9
    stop.set()
    return (seconds, churning ? pairs.wait() : 0)
}

/// Heap bytes per live delegate of Multicast (weak) with `size` delegates: quiet, then after `nanoseconds` of
/// churn with a permanent caller (the median of five samples near the end, while both threads run).
func measureChurnMemory(size: Int, nanoseconds: UInt64) -> (quiet: Double, churned: Double) {
    let receivers = (0..<size).map { _ in Counter() }
    let weakReferences = WeakFloor(receivers)  // creates every receiver's side table, as `measureMemory` does
    let before = heapBytesInUse()
    let contender = MulticastWeak(receivers)
    let quiet = heapBytesInUse() - before
    var churned: [Int] = []
    churned.reserveCapacity(5)
    _ = churn(contender, receivers, churning: true, nanoseconds: nanoseconds) {
        churned.append(heapBytesInUse() - before)
    }
    check(isExact(contender, receivers), "a delegate was lost under churn")
    withExtendedLifetime(weakReferences) {}
    return (Double(quiet) / Double(size), Double(churned.sorted()[churned.count / 2]) / Double(size))
}

/// Whether one call of `contender` calls every receiver exactly once: the churn left each registered once.
func isExact(_ contender: any Contender, _ receivers: [Counter]) -> Bool {
    let before = receivers.map(\.total)
    contender.callAll(1)
    return zip(receivers, before).allSatisfy { $0.total == $1 + 1 }
}

/// A receiver handed to the removing thread, which only registers and unregisters it (never calls it).
struct UnsafeReceiver: @unchecked Sendable {
    let receiver: Counter
}

/// A flag one thread sets and another polls.
final class Flag: @unchecked Sendable {
    private let lock = CheckLock()  // NSLock's withLock needs macOS 14
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Async delivery: nanoseconds per delegate from the call until every delegate has run, for every async
/// contender. Each sample runs its deliveries in a task, timed there, while the main thread waits.
func measureAsyncDelivery(size: Int, settings: Settings) -> [String: Figure] {
    let contenders = asyncContenders.map { type -> (String, any AsyncContender, [Counter]) in
        let receivers = (0..<size).map { _ in Counter() }  // each contender its own, never shared
        return (type.name, type.init(receivers), receivers)
    }
    let measurements = contenders.map { name, contender, receivers in
        var expected = 0
        let repetitions = calibrate(target: settings.sampleNanoseconds) { repetitions in
            _ = deliver(contender, repetitions)
            expected += repetitions
        }
        return { () -> Double in
            let elapsed = deliver(contender, repetitions)
            expected += repetitions
            check(receivers.allSatisfy { $0.total == expected }, "\(name) at N = \(size): a delegate missed a delivery")
            return Double(elapsed) / Double(repetitions * size)
        }
    }
    let figures = interleave(samples: settings.samples, measurements)
    return Dictionary(uniqueKeysWithValues: zip(contenders.map(\.0), figures))
}

/// Delivers to `contender`'s delegates `repetitions` times, one delivery after another, in a task; returns the
/// nanoseconds the deliveries took.
func deliver(_ contender: any AsyncContender, _ repetitions: Int) -> UInt64 {
    waitFor {
        let start = now()
        for _ in 0..<repetitions { await contender.deliver(1) }
        return now() - start
    }
}

/// Runs `body` in a task and blocks this thread, which is not one of the tasks' threads, until it returns.
func waitFor<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let result = Delivered<Result>()
    Task.detached { result.set(await body()) }
    return result.wait()
}

/// A value one thread delivers and another waits for.
final class Delivered<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?
    func set(_ newValue: Value) {
        condition.lock()
        value = newValue
        condition.signal()
        condition.unlock()
    }
    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
