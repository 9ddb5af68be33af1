import Multicast

/// The delegate protocol of the stress test.
package protocol StressDelegate: AnyObject, Sendable {
    var id: Int { get }
    /// Called by a pass over multicast `list`, with ticks of the shared clock: `pass`, taken before the pass
    /// began; `turns`, at its first delegate's turn (after it took its snapshot); `since`, before the pass
    /// chose this delegate (the pass's start, or the end of the previous delegate's turn).
    func hear(list: Int, pass: Int, turns: Int, since: Int)
}

/// How big a stress run is.
package struct StressConfiguration: Sendable {
    package var threads = 4
    package var operationsPerThread = 50_000
    package var multicasts = 2
    package var poolSize = 16
    package var seed: UInt64 = 1
    /// Seconds after which unfinished threads count as a deadlock.
    package var timeout = 600.0

    package init(threads: Int = 4, operationsPerThread: Int = 50_000, seed: UInt64 = 1, timeout: Double = 600) {
        self.threads = threads
        self.operationsPerThread = operationsPerThread
        self.seed = seed
        self.timeout = timeout
    }
}

/// What a stress run did, and every invariant it saw broken.
package struct StressReport: Sendable, CustomStringConvertible {
    package var configuration: StressConfiguration
    package var finished = false
    package var operations = 0
    package var passes = 0
    package var calls = 0
    package var removals = 0
    package var delegates = 0
    package var violations: [String] = []

    package var passed: Bool { finished && violations.isEmpty }

    package var description: String {
        var text =
            "stress: \(configuration.threads) threads x \(configuration.operationsPerThread) operations = "
            + "\(operations) on \(configuration.multicasts) multicasts, \(delegates) delegates, \(passes) passes, "
            + "\(calls) calls, \(removals) removals; "
        if !finished {
            text += "DEADLOCK: threads still running after \(configuration.timeout) s"
        } else if violations.isEmpty {
            text += "all invariants hold"
        } else {
            text += "\(violations.count) violations:\n" + violations.prefix(20).joined(separator: "\n")
        }
        return text
    }
}

/// A shared logical clock: each tick is later than every tick taken before it on any thread.
package final class LogicalClock: @unchecked Sendable {
    private let lock = CheckLock()
    private var now = 0

    package init() {}

    package func tick() -> Int {
        lock.withLock {
            now += 1
            return now
        }
    }
}

/// What happened to one delegate, kept after it is deallocated.
final class DelegateRecord: @unchecked Sendable {
    struct Call {
        var list: Int
        var pass: Int
        var turns: Int
        var since: Int
    }

    struct Interval {
        var list: Int
        var start: Int
        var end: Int
    }

    let id: Int
    private let lock = CheckLock()
    private(set) var calls: [Call] = []
    /// Adds, from a tick before the call to one after it returned.
    private(set) var adds: [Interval] = []
    /// Removals, from a tick before the call to one after it returned.
    private(set) var removals: [Interval] = []

    init(id: Int) {
        self.id = id
    }

    func called(list: Int, pass: Int, turns: Int, since: Int) {
        lock.withLock { calls.append(Call(list: list, pass: pass, turns: turns, since: since)) }
    }
    func added(list: Int, start: Int, end: Int) {
        lock.withLock { adds.append(Interval(list: list, start: start, end: end)) }
    }
    func removed(list: Int, start: Int, end: Int) {
        lock.withLock { removals.append(Interval(list: list, start: start, end: end)) }
    }
}

/// The multicasts, the clock and every delegate's record.
final class StressWorld: @unchecked Sendable {
    let multicasts: [MulticastDelegate<any StressDelegate>]
    let clock = LogicalClock()
    let records = Guarded<[DelegateRecord]>([])
    /// Calls of `removeAll()`, per multicast.
    let removeAlls: Guarded<[[DelegateRecord.Interval]]>
    /// The shared pool: a thread may replace a delegate here while others call it.
    let pool: [Guarded<StressProbe?>]
    /// The shared pool of owners of owned registrations: a thread may replace an owner here, which ends its
    /// registrations, while others call them.
    let owners: [Guarded<StressOwner?>]

    init(_ configuration: StressConfiguration) {
        multicasts = (0..<configuration.multicasts).map { _ in MulticastDelegate() }
        removeAlls = Guarded(Array(repeating: [], count: configuration.multicasts))
        pool = (0..<configuration.poolSize).map { _ in Guarded(nil) }
        owners = (0..<configuration.poolSize / 2).map { _ in Guarded(nil) }
        for slot in pool {
            let probe = makeProbe(removesItself: false)
            slot.withValue { $0 = probe }
        }
        for slot in owners {
            let owner = makeOwner()
            slot.withValue { $0 = owner }
        }
    }

    func makeOwner() -> StressOwner {
        records.withValue { records in
            let record = DelegateRecord(id: records.count)
            records.append(record)
            return StressOwner(record: record)
        }
    }

    /// Registers a new delegate owned by `owner`, replacing the one it had: for the invariants, a removal and an
    /// add of the owner's registration, under its record.
    func add(ownedBy owner: StressOwner, to list: Int) {
        let start = clock.tick()
        multicasts[list].add(OwnedStressProbe(record: owner.record), ownedBy: owner)
        owner.record.added(list: list, start: start, end: clock.tick())
    }

    func remove(ownedBy owner: StressOwner, from list: Int) {
        let start = clock.tick()
        multicasts[list].remove(ownedBy: owner)
        owner.record.removed(list: list, start: start, end: clock.tick())
    }

    func makeProbe(removesItself: Bool) -> StressProbe {
        records.withValue { records in
            let record = DelegateRecord(id: records.count)
            records.append(record)
            return StressProbe(record: record, world: removesItself ? self : nil)
        }
    }

    func add(_ probe: StressProbe, to list: Int, retention: Retention) {
        let start = clock.tick()
        multicasts[list].add(probe, retention: retention)
        probe.record.added(list: list, start: start, end: clock.tick())
    }

    func remove(_ probe: StressProbe, from list: Int) {
        let start = clock.tick()
        multicasts[list].remove(probe)
        probe.record.removed(list: list, start: start, end: clock.tick())
    }
}

/// A stress delegate: records each call, and may remove itself from the multicast that calls it.
package final class StressProbe: StressDelegate {
    package var id: Int { record.id }
    let record: DelegateRecord
    /// How every multicast that the pool's threads add this delegate to holds it: a delegate has one retention
    /// in a multicast, and adding it with the other stops the program. Three in ten are strong.
    var retention: Retention { record.id % 10 < 3 ? .strong : .weak }
    /// Set for delegates that remove themselves on their turn. Weak: the world's pool and multicasts hold
    /// delegates, and a cycle would leak the whole run (valgrind saw it).
    private weak let world: StressWorld?

    init(record: DelegateRecord, world: StressWorld?) {
        self.record = record
        self.world = world
    }

    package func hear(list: Int, pass: Int, turns: Int, since: Int) {
        record.called(list: list, pass: pass, turns: turns, since: since)
        world?.remove(self, from: list)
    }
}

/// The owner of owned registrations: its death ends them. Its record stands for its registration in each
/// multicast, whichever delegate it holds there.
final class StressOwner: Sendable {
    let record: DelegateRecord

    init(record: DelegateRecord) {
        self.record = record
    }
}

/// The delegate of an owned registration: records each call in its owner's record, which it keeps; it does not
/// keep its owner, which would then never die.
final class OwnedStressProbe: StressDelegate {
    var id: Int { record.id }
    let record: DelegateRecord

    init(record: DelegateRecord) {
        self.record = record
    }

    func hear(list: Int, pass: Int, turns: Int, since: Int) {
        record.called(list: list, pass: pass, turns: turns, since: since)
    }
}

/// One thread's count of the calls its passes made, by delegate id.
struct PassLedger {
    var calls: [Int: Int] = [:]
    var passes = 0
    var operations = 0
    var removals = 0

    mutating func merge(_ other: PassLedger) {
        calls.merge(other.calls, uniquingKeysWith: +)
        passes += other.passes
        operations += other.operations
        removals += other.removals
    }
}

/// Runs `configuration.threads` threads of random operations on shared multicasts and a shared pool of
/// delegates, then checks that no pass called a delegate removed before it began, that each delegate heard
/// exactly the calls the passes made, at most once per pass, and that no thread deadlocked.
package func runStress(_ configuration: StressConfiguration) -> StressReport {
    let world = StressWorld(configuration)
    let ledgers = Guarded(PassLedger())
    let finished = runOnThreads(configuration.threads, timeout: configuration.timeout) { thread in
        var random = SplitMix64(seed: configuration.seed &* 1_000_003 &+ UInt64(thread))
        var ledger = PassLedger()
        var own: [StressProbe] = []  // self-removing weak delegates this thread keeps alive, then drops
        for _ in 0..<configuration.operationsPerThread {
            ledger.operations += 1
            let list = random.below(world.multicasts.count)
            let multicast = world.multicasts[list]
            let slot = world.pool[random.below(world.pool.count)]
            let ownerSlot = world.owners[random.below(world.owners.count)]
            switch random.below(100) {
            case 0..<20:
                let probe = slot.value!
                world.add(probe, to: list, retention: probe.retention)
            case 20..<32:
                world.remove(slot.value!, from: list)
                ledger.removals += 1
            case 32..<36:
                // Drops the pool's reference: a weak delegate dies here while other threads call it.
                let probe = world.makeProbe(removesItself: random.below(8) == 0)
                slot.withValue { $0 = probe }
            case 36..<39:
                let probe = world.makeProbe(removesItself: true)
                own.append(probe)
                world.add(probe, to: list, retention: .weak)
            case 39..<41:
                own.removeAll()
            case 41 where random.below(20) == 0:
                let start = world.clock.tick()
                multicast.removeAll()
                let end = world.clock.tick()
                world.removeAlls.withValue {
                    $0[list].append(DelegateRecord.Interval(list: list, start: start, end: end))
                }
            case 41..<48:
                _ = multicast.count + (multicast.isEmpty ? 1 : 0)
                _ = multicast.contains(slot.value!)
            case 48..<54:
                // An owned registration, or its replacement when the owner has one.
                world.add(ownedBy: ownerSlot.value!, to: list)
            case 54..<57:
                world.remove(ownedBy: ownerSlot.value!, from: list)
                ledger.removals += 1
            case 57..<59:
                // Drops the pool's reference: an owner dies here while other threads call its registrations.
                let owner = world.makeOwner()
                ownerSlot.withValue { $0 = owner }
            case 59..<60:
                _ = multicast.delegate(ownedBy: ownerSlot.value!)
            case 60..<70:
                let pass = world.clock.tick()
                var (turns, since) = (0, pass)
                ledger.passes += 1
                for delegate in multicast {
                    if turns == 0 { turns = world.clock.tick() }
                    delegate.hear(list: list, pass: pass, turns: turns, since: since)
                    ledger.calls[delegate.id, default: 0] += 1
                    since = world.clock.tick()
                }
            default:
                let pass = world.clock.tick()
                var (turns, since) = (0, pass)
                ledger.passes += 1
                multicast.call { delegate in
                    if turns == 0 { turns = world.clock.tick() }
                    delegate.hear(list: list, pass: pass, turns: turns, since: since)
                    ledger.calls[delegate.id, default: 0] += 1
                    since = world.clock.tick()
                }
            }
        }
        own.removeAll()
        ledgers.withValue { $0.merge(ledger) }
    }
    var report = StressReport(configuration: configuration)
    report.finished = finished
    guard finished else { return report }
    let ledger = ledgers.value
    report.operations = ledger.operations
    report.passes = ledger.passes
    report.removals = ledger.removals
    let records = world.records.value
    report.delegates = records.count
    report.calls = ledger.calls.values.reduce(0, +)
    let removeAlls = world.removeAlls.value
    for record in records {
        report.violations += violations(of: record, passCalls: ledger.calls[record.id, default: 0], removeAlls)
    }
    return report
}

/// The invariants, for one delegate.
func violations(of record: DelegateRecord, passCalls: Int, _ removeAlls: [[DelegateRecord.Interval]]) -> [String] {
    var found: [String] = []
    if record.calls.count != passCalls {
        found.append("delegate \(record.id) heard \(record.calls.count) calls, the passes made \(passCalls)")
    }
    var seen = Set<[Int]>()
    for call in record.calls where !seen.insert([call.list, call.pass]).inserted {
        found.append("delegate \(record.id) was called twice by the pass of tick \(call.pass) on list \(call.list)")
    }
    for list in removeAlls.indices {
        // Removals of this delegate from `list` by end, with the latest start among them so far.
        let removals = (record.removals.filter { $0.list == list } + removeAlls[list]).sorted { $0.end < $1.end }
        var latestStart: [Int] = []
        for removal in removals { latestStart.append(max(latestStart.last ?? 0, removal.start)) }
        // Adds by start, with the latest end among them so far.
        let adds = record.adds.filter { $0.list == list }.sorted { $0.start < $1.start }
        var latestEnd: [Int] = []
        for add in adds { latestEnd.append(max(latestEnd.last ?? 0, add.end)) }
        for call in record.calls where call.list == list {
            // Removed before its turn, and never called by a pass that starts after `remove` returned: a removal that returned before the pass chose this delegate (`since`) rules the call
            // out, unless an add may have registered the delegate after the removal took effect and before the
            // pass took its snapshot: an add that started before the pass's first turn and ended after the
            // removal started. The removal that returned last is not the one to check: the one that started
            // last is.
            let addsBefore = adds.partitioningIndex { $0.start >= call.turns }
            guard addsBefore > 0 else {
                found.append("delegate \(record.id) was called by pass \(call.pass) on list \(list) before any add")
                continue
            }
            let removalsBefore = removals.partitioningIndex { $0.end >= call.since }
            guard removalsBefore > 0 else { continue }
            let lastRemoval = latestStart[removalsBefore - 1]
            if latestEnd[addsBefore - 1] < lastRemoval {
                found.append(
                    "delegate \(record.id) was called by a pass on list \(list) that began at tick \(call.pass) (turn at \(call.since)), "
                        + "after a remove or removeAll that started at tick \(lastRemoval) with no add since"
                )
            }
        }
    }
    return found
}

extension Array {
    /// The index of the first element for which `belongs` is true, given that all after it are too.
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
