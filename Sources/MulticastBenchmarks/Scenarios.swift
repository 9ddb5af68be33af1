import Foundation

/// How long a run may take, and how carefully it measures.
struct Settings {
    var samples: Int
    var sampleNanoseconds: UInt64
    var callSizes: [Int]
    var registrationSizes: [Int]
    var churnNanoseconds: UInt64
    /// Whose heap allocations per call to count with valgrind (about a second a count), at which sizes.
    var allocationContenders: [any Contender.Type]
    var allocationSizes: [Int]

    static let full = Settings(
        samples: 15,
        sampleNanoseconds: 8_000_000,
        callSizes: [1, 10, 100, 1000],
        registrationSizes: [1000, 10_000, 100_000],
        churnNanoseconds: 1_000_000_000,
        allocationContenders: callContenders,
        allocationSizes: [1, 10, 100, 1000]
    )

    static let quick = Settings(
        samples: 5,
        sampleNanoseconds: 2_000_000,
        callSizes: [1, 10, 100, 1000],
        registrationSizes: [1000, 10_000, 100_000],
        churnNanoseconds: 200_000_000,
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
            for _ in 0..<repetitions { contender.callAll(value) }
            expected += repetitions * value
        }
        return { () -> Double in
            let start = now()
            for _ in 0..<repetitions { contender.callAll(value) }
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

/// Throughput of `call` on one thread while another adds and removes delegates: calls per second and
/// add-remove pairs per second.
func measureChurn(settings: Settings) -> [String: (calls: Double, changes: Double)] {
    [
        MulticastWeak.name: measureChurn(MulticastWeak.self, settings: settings),
        NotificationCenterWeak.name: measureChurn(NotificationCenterWeak.self, settings: settings),
    ]
}

func measureChurn<C: Registering & Sendable>(_ type: C.Type, settings: Settings) -> (calls: Double, changes: Double) {
    let receivers = (0..<100).map { _ in Counter() }
    let churners = (0..<100).map { _ in Counter() }
    let contender = C(receivers)
    let stop = Flag()
    let changes = Counted()
    let churn = Thread {
        var count = 0
        while !stop.isSet {
            for churner in churners { contender.register(churner) }
            for churner in churners { contender.unregister(churner) }
            count += churners.count
        }
        changes.set(count)
    }
    churn.start()
    let start = now()
    var calls = 0
    while now() - start < settings.churnNanoseconds {
        contender.callAll(1)
        calls += 1
    }
    let elapsed = Double(now() - start) / 1e9
    stop.set()
    let finished = changes.wait()
    check(receivers.allSatisfy { $0.total == calls }, "\(type.name): a delegate missed calls under churn")
    return (Double(calls) / elapsed, Double(finished) / elapsed)
}

/// A flag one thread sets and another polls.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// A number one thread delivers and another waits for.
final class Counted: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Int?
    func set(_ newValue: Int) {
        condition.withLock {
            value = newValue
            condition.signal()
        }
    }
    func wait() -> Int {
        condition.withLock {
            while value == nil { condition.wait() }
            return value!
        }
    }
}

/// A contender with no delegates (a generic function, so that the existential metatype is opened).
func makeEmpty<C: Registering>(_ type: C.Type) -> any Registering {
    C()
}
