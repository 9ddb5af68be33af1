import Multicast

/// The delegate protocol of the fuzzed multicasts: class-bound.
package protocol FuzzDelegate: AnyObject {
    var id: Int { get }
}

/// The same, not class-bound: `any LooseDelegate` is an opaque existential container, not a bare reference.
package protocol LooseDelegate {
    var id: Int { get }
}

/// A delegate of the random programs; its id is its index in the model.
package final class FuzzProbe: FuzzDelegate, LooseDelegate {
    package let id: Int

    init(id: Int) {
        self.id = id
    }
}

/// Where a random program and the model first disagreed.
package struct FuzzFailure: Error, CustomStringConvertible, Sendable {
    /// The index of the top-level operation that failed.
    package var step: Int
    package var message: String

    package var description: String { "step \(step): \(message)" }
}

/// What a run did.
package struct FuzzStatistics: Sendable {
    /// Top-level operations.
    package var operations = 0
    /// Operations that delegates performed on their turn in a pass.
    package var turnActions = 0
    package var passes = 0
    /// Delegates called (or visited) by passes, each checked against the model.
    package var visits = 0
    /// Those of them that were owned delegates.
    package var ownedVisits = 0
    /// Owners that died while a pass was under way.
    package var ownerDeathsDuringPasses = 0

    package init() {}

    package mutating func merge(_ other: FuzzStatistics) {
        operations += other.operations
        turnActions += other.turnActions
        passes += other.passes
        visits += other.visits
        ownedVisits += other.ownedVisits
        ownerDeathsDuringPasses += other.ownerDeathsDuringPasses
    }
}

/// Runs random programs against `MulticastDelegate` and ``ReferenceModel`` in lockstep.
package enum ModelFuzzer {
    /// Runs `program` on fresh multicasts; returns the first disagreement with the model, if any.
    package static func replay(shape: DelegateShape, _ program: [FuzzOp]) -> FuzzFailure? {
        run(program, shape: shape).failure
    }

    static func run(_ program: [FuzzOp], shape: DelegateShape) -> (failure: FuzzFailure?, statistics: FuzzStatistics) {
        switch shape {
        case .classBound:
            let runner = FuzzRunner<any FuzzDelegate>(wrap: { $0 }, unwrap: { $0 as! FuzzProbe })
            return (runner.run(program), runner.statistics)
        case .loose:
            let runner = FuzzRunner<any LooseDelegate>(wrap: { $0 }, unwrap: { $0 as! FuzzProbe })
            return (runner.run(program), runner.statistics)
        case .concrete:
            let runner = FuzzRunner<FuzzProbe>(wrap: { $0 }, unwrap: { $0 })
            return (runner.run(program), runner.statistics)
        }
    }

    /// The shortest program found that still fails against `MulticastDelegate` (see ``shrink(_:failingStep:)``).
    package static func shrink(_ program: [FuzzOp], shape: DelegateShape) -> [FuzzOp] {
        shrink(program) { replay(shape: shape, $0)?.step }
    }

    /// The shortest program found that still fails: the failing prefix, less every chunk of operations whose
    /// removal keeps it failing (halving the chunk size down to single operations). `failingStep` runs a
    /// program and returns the index of the operation that failed, or nil if it passed.
    package static func shrink(_ program: [FuzzOp], failingStep: ([FuzzOp]) -> Int?) -> [FuzzOp] {
        guard let step = failingStep(program) else { return program }
        var current = Array(program.prefix(step + 1))
        var chunk = max(current.count / 2, 1)
        while true {
            var start = 0
            while start < current.count {
                var candidate = current
                candidate.removeSubrange(start..<min(start + chunk, current.count))
                if let step = failingStep(candidate) {
                    current = Array(candidate.prefix(step + 1))
                } else {
                    start += chunk
                }
            }
            if chunk == 1 { return current }
            chunk /= 2
        }
    }

    /// Runs `operations` random operations, in programs of `programLength` from fresh multicasts, all drawn from
    /// `seed`. Stops at the first failure, which it shrinks.
    package static func fuzz(seed: UInt64, operations: Int, programLength: Int = 200) -> FuzzReport {
        var seeds = SplitMix64(seed: seed)
        var statistics = FuzzStatistics()
        var index = 0
        while statistics.operations < operations {
            let length = min(programLength, operations - statistics.operations)
            let program = FuzzOp.program(seed: seeds.next(), count: length)
            let shape = DelegateShape.allCases[index % DelegateShape.allCases.count]
            let (failure, programStatistics) = run(program, shape: shape)
            statistics.merge(programStatistics)
            if let failure {
                let shortest = shrink(program, shape: shape)
                let counterexample = FuzzCounterexample(
                    seed: seed,
                    program: index,
                    shape: shape,
                    failure: replay(shape: shape, shortest) ?? failure,
                    operations: shortest,
                    originalLength: failure.step + 1
                )
                return FuzzReport(seed: seed, statistics: statistics, counterexample: counterexample)
            }
            index += 1
        }
        return FuzzReport(seed: seed, statistics: statistics, counterexample: nil)
    }
}

/// The outcome of ``ModelFuzzer/fuzz(seed:operations:programLength:)``.
package struct FuzzReport: Sendable {
    package var seed: UInt64
    package var statistics: FuzzStatistics
    package var counterexample: FuzzCounterexample?
}

/// A failing program, shrunk, in a form that replays it.
package struct FuzzCounterexample: Sendable, CustomStringConvertible {
    package var seed: UInt64
    package var program: Int
    package var shape: DelegateShape
    package var failure: FuzzFailure
    package var operations: [FuzzOp]
    package var originalLength: Int

    package var description: String {
        let lines = operations.map { "    \($0)," }.joined(separator: "\n")
        return """
            MulticastDelegate disagrees with the reference model: seed \(seed), program \(program), \
            shape .\(shape)
            \(failure)
            Shortest failing program: \(operations.count) operations (of the first \(originalLength)). Replay it with
            ModelFuzzer.replay(shape: .\(shape), [
            \(lines)
            ])
            or rerun the seed: MULTICAST_FUZZ_SEED=\(seed) swift test --filter ModelBasedTests
            """
    }
}

struct WeakProbe {
    weak var object: FuzzProbe?
}

/// An owner of the random programs' owned registrations; its id is its index in the model's owners.
final class FuzzOwner {
    let id: Int
    /// What its deinit does, given the owner being deallocated.
    var onDeinit: ((FuzzOwner) -> Void)?

    init(id: Int) {
        self.id = id
    }

    deinit {
        onDeinit?(self)
    }
}

struct WeakOwner {
    weak var object: FuzzOwner?
}

/// Throws to stop a `.throwing` pass.
private struct Stop: Error {}

/// One random program's real multicasts, delegates, owners and model.
final class FuzzRunner<Delegate> {
    let wrap: (FuzzProbe) -> Delegate
    let unwrap: (Delegate) -> FuzzProbe
    var lists: [MulticastDelegate<Delegate>] = (0..<FuzzShape.lists).map { _ in MulticastDelegate() }
    /// The harness's own references: the only strong references to delegates outside the multicasts. The
    /// delegates of owned registrations have none: the multicast is their only holder.
    var handles = [FuzzProbe?](repeating: nil, count: FuzzShape.handles)
    /// The only strong references to owners, which the multicasts hold weakly.
    var ownerHandles = [FuzzOwner?](repeating: nil, count: FuzzShape.owners)
    /// Every delegate created, by id, to see which are deallocated.
    var probes: [WeakProbe] = []
    /// The delegates not yet seen deallocated at a check of liveness, the only ones it checks: one that is, with
    /// the model's agreement, stays so, since nothing holds it to register it again.
    var alive: [Int] = []
    /// Every owner created, by id.
    var owners: [WeakOwner] = []
    var model = ReferenceModel()
    var step = 0
    var statistics = FuzzStatistics()
    var weakAdds = 0
    /// Passes under way over each list: while none is, a removed owned delegate is released at once.
    var passesUnderWay = [Int](repeating: 0, count: FuzzShape.lists)
    /// The first disagreement found in an owner's deinit, which cannot throw it.
    var deinitFailure: FuzzFailure?
    /// Set once the program has ended: the owners' deinits then do nothing.
    var finished = false

    init(wrap: @escaping (FuzzProbe) -> Delegate, unwrap: @escaping (Delegate) -> FuzzProbe) {
        self.wrap = wrap
        self.unwrap = unwrap
    }

    func failure(_ message: String) -> FuzzFailure {
        FuzzFailure(step: step, message: message)
    }

    func run(_ program: [FuzzOp]) -> FuzzFailure? {
        do {
            for (index, operation) in program.enumerated() {
                step = index
                statistics.operations += 1
                try perform(operation, current: nil, depth: 0)
                if let deinitFailure { throw deinitFailure }
                try compare(liveness: true)
            }
            step = program.count
            // Strong retention: the multicasts' deinit releases their strong and owned delegates.
            lists.removeAll()
            for id in probes.indices where (probes[id].object != nil) != model.probes[id].held {
                throw failure("after the multicasts were deallocated, delegate \(id) is \(describe(id))")
            }
            finished = true
            handles = []
            ownerHandles = []
            if let id = probes.indices.first(where: { probes[$0].object != nil }) {
                throw failure("delegate \(id) outlived every reference to it: a leak")
            }
            if let id = owners.indices.first(where: { owners[$0].object != nil }) {
                throw failure("owner \(id) outlived every reference to it: a leak")
            }
            return nil
        } catch let failure as FuzzFailure {
            return failure
        } catch {
            return failure("unexpected error \(error)")
        }
    }

    func describe(_ id: Int) -> String {
        let alive = probes[id].object != nil
        let state = model.probes[id]
        if let owner = state.owner {
            return "\(alive ? "alive" : "deallocated") (owned by \(describe(owner: owner)), "
                + "registered: \(state.registered))"
        }
        return "\(alive ? "alive" : "deallocated") (\(state.strong ? "strong" : "weak"), "
            + "held by the harness: \(state.held), registered in lists "
            + "\(model.lists.indices.filter { model.isRegistered(id, in: $0) }))"
    }

    func describe(owner id: Int) -> String {
        let state = model.owners[id]
        return "owner \(id), \(owners[id].object != nil ? "alive" : "deallocated"), held by the harness: "
            + "\(state.held), kept by \(state.pins) turns"
    }

    func perform(_ operation: FuzzOp, current: Int?, depth: Int) throws {
        if let deinitFailure { throw deinitFailure }
        switch operation {
        case .create(let handle, let strong):
            let id = model.create(handle: handle, strong: strong)
            let probe = FuzzProbe(id: id)
            probes.append(WeakProbe(object: probe))
            alive.append(id)
            handles[handle] = probe
        case .add(let list, let handle):
            guard let id = model.handles[handle] else { return }
            let strong = model.probes[id].strong
            let added = add(handles[handle]!, to: list, strong: strong)
            let expected = model.add(id, to: list)
            guard added == expected else {
                throw failure("add(\(id)) to list \(list) returned \(added), the model says \(expected)")
            }
        case .reAdd(let list, let handle):
            guard let id = model.handles[handle], model.isRegistered(id, in: list) else { return }
            let added = add(handles[handle]!, to: list, strong: model.probes[id].strong)
            guard !added else {
                throw failure("adding registered delegate \(id) to list \(list) again returned true")
            }
        case .remove(let list, let handle):
            guard model.handles[handle] != nil else { return }
            try remove(handles[handle]!, from: list)
        case .removeSelf(let list):
            guard let id = current, let probe = probes[id].object else {
                throw failure("the delegate whose turn it is was deallocated during its turn")
            }
            try remove(probe, from: list)
            if let owner = model.probes[id].owner, model.owners[owner].isAlive {
                guard let object = owners[owner].object else {
                    throw failure("\(describe(owner: owner)) was deallocated during its delegate's turn")
                }
                try remove(ownedBy: object, from: list)
            }
        case .removeAll(let list):
            lists[list].removeAll()
            model.removeAll(list)
        case .release(let handle):
            handles[handle] = nil
            model.release(handle: handle)
        case .releaseSelf:
            guard let id = current else { return }
            if let owner = model.probes[id].owner {
                guard let handle = model.ownerHandles.firstIndex(of: owner) else { return }
                releaseOwner(handle)
            } else if let handle = model.handles.firstIndex(of: id) {
                handles[handle] = nil
                model.release(handle: handle)
            }
        case .pass(let list, let kind, let script):
            try pass(list: list, kind: kind, script: script, depth: depth + 1)
        case .createOwner(let handle, let onDeinit):
            releaseOwner(handle)
            let owner = FuzzOwner(id: model.owners.count)
            _ = model.createOwner(handle: handle, address: UInt(bitPattern: ObjectIdentifier(owner)))
            owner.onDeinit = { [weak self] in self?.ownerDeinit($0, onDeinit) }
            owners.append(WeakOwner(object: owner))
            ownerHandles[handle] = owner
        case .addOwned(let list, let handle):
            guard let owner = ownerHandles[handle] else { return }
            try add(ownedBy: owner, to: list)
        case .replace(let list, let handle):
            guard let owner = ownerHandles[handle], model.delegate(ownedBy: owner.id, in: list) != nil else {
                return
            }
            try add(ownedBy: owner, to: list)
        case .removeOwned(let list, let handle):
            guard let owner = ownerHandles[handle] else { return }
            try remove(ownedBy: owner, from: list)
        case .releaseOwner(let handle):
            releaseOwner(handle)
        case .check:
            try compare(liveness: false)
        }
    }

    func add(_ probe: FuzzProbe, to list: Int, strong: Bool) -> Bool {
        if strong { return lists[list].add(wrap(probe), retention: .strong) }
        weakAdds += 1
        return weakAdds % 2 == 0 ? lists[list].add(wrap(probe)) : lists[list].add(wrap(probe), retention: .weak)
    }

    func remove(_ probe: FuzzProbe, from list: Int) throws {
        let removed = lists[list].remove(wrap(probe))
        let expected = model.remove(probe.id, from: list)
        guard removed == expected else {
            throw failure("remove(\(probe.id)) from list \(list) returned \(removed), the model says \(expected)")
        }
    }

    /// A new delegate, which only the multicast is to hold, for an owned registration of `owner`.
    func makeOwnedProbe(owner: Int) -> FuzzProbe {
        let probe = FuzzProbe(id: model.createOwned(by: owner))
        probes.append(WeakProbe(object: probe))
        alive.append(probe.id)
        return probe
    }

    /// Adds a new delegate owned by the live `owner`: it registers, replacing the owner's registration if any.
    func add(ownedBy owner: FuzzOwner, to list: Int) throws {
        let id = model.probes.count
        let added = lists[list].add(wrap(makeOwnedProbe(owner: owner.id)), ownedBy: owner)
        guard added else { throw failure("add(\(id), ownedBy: owner \(owner.id)) to list \(list) returned false") }
        let replaced = model.add(id, ownedBy: owner.id, to: list)
        try expectReleased(replaced.map { [$0] } ?? [], from: list, "replaced")
    }

    func remove(ownedBy owner: FuzzOwner, from list: Int) throws {
        let removed = lists[list].remove(ownedBy: owner)
        let expected = model.remove(ownedBy: owner.id, from: list)
        guard removed == (expected != nil) else {
            throw failure(
                "remove(ownedBy: owner \(owner.id)) from list \(list) returned \(removed), the model says "
                    + "\(expected != nil)")
        }
        try expectReleased(expected.map { [$0] } ?? [], from: list, "removed")
    }

    /// Drops the harness's reference to the owner in `handle`; its deinit runs here unless a pass keeps it.
    func releaseOwner(_ handle: Int) {
        model.releaseOwner(handle: handle)
        ownerHandles[handle] = nil
    }

    /// An owned delegate removed or replaced while no pass reads its list is released at once.
    func expectReleased(_ ids: [Int], from list: Int, _ how: String) throws {
        guard passesUnderWay[list] == 0 else { return }
        for id in ids where probes[id].object != nil {
            throw failure("owned delegate \(id), \(how) from list \(list) with no pass under way, is still alive")
        }
    }

    /// The deinit of `owner`: checks that the model has it dead, then does what `onDeinit` says. A disagreement
    /// waits in `deinitFailure` for the next operation.
    func ownerDeinit(_ owner: FuzzOwner, _ onDeinit: OwnerDeinit) {
        guard !finished, deinitFailure == nil else { return }
        if passesUnderWay.contains(where: { $0 > 0 }) { statistics.ownerDeathsDuringPasses += 1 }
        do {
            guard !model.owners[owner.id].isAlive else {
                throw failure("\(describe(owner: owner.id)) was deallocated; the model has it alive")
            }
            switch onDeinit {
            case .nothing: break
            case .removeOwned(let list):
                let removed = lists[list].remove(ownedBy: owner)
                let (own, earlier) = model.removeFromDeinit(ownedBy: owner.id, from: list)
                // Earlier owners' ended registrations at the address may have been reclaimed already.
                guard removed ? own != nil || !earlier.isEmpty : own == nil else {
                    throw failure(
                        "remove(ownedBy: owner \(owner.id)) from its deinit, from list \(list), returned "
                            + "\(removed); the model has its registration: \(own.map { "\($0)" } ?? "none"), "
                            + "ended ones of earlier owners at its address: \(earlier)")
                }
                try expectReleased((own.map { [$0] } ?? []) + earlier, from: list, "removed by its owner's deinit")
            case .addOwned(let list):
                let id = model.probes.count
                let added = lists[list].add(wrap(makeOwnedProbe(owner: owner.id)), ownedBy: owner)
                guard !added else {
                    throw failure("add(\(id), ownedBy: owner \(owner.id)) from the owner's deinit returned true")
                }
                guard probes[id].object == nil else {
                    throw failure("delegate \(id), refused by an add from its owner's deinit, is still alive")
                }
            }
        } catch let failure as FuzzFailure {
            deinitFailure = failure
        } catch {
            deinitFailure = failure("unexpected error \(error)")
        }
    }

    /// Compares `count`, `isEmpty`, `contains` of every held delegate and `delegate(ownedBy:)` of every held
    /// owner; with `liveness`, also which delegates and owners are alive (exact only outside passes: a pass's
    /// storage may keep removed strong and owned delegates until it ends).
    func compare(liveness: Bool) throws {
        let model = model  // one copy: a debug build copies the model at each read of the property
        for list in lists.indices {
            let count = lists[list].count
            let expected = model.count(list)
            guard count == expected else {
                throw failure("list \(list) counts \(count) delegates, the model \(expected)")
            }
            guard lists[list].isEmpty == (expected == 0) else {
                throw failure("list \(list).isEmpty is \(lists[list].isEmpty) with \(expected) delegates")
            }
            for case let probe? in handles {
                let contains = lists[list].contains(wrap(probe))
                guard contains == model.isRegistered(probe.id, in: list) else {
                    throw failure("list \(list).contains(\(probe.id)) is \(contains); \(describe(probe.id))")
                }
            }
            for case let owner? in ownerHandles {
                let found = lists[list].delegate(ownedBy: owner).map { unwrap($0) }
                let expected = model.delegate(ownedBy: owner.id, in: list)
                guard found?.id == expected else {
                    throw failure(
                        "list \(list).delegate(ownedBy: owner \(owner.id)) is \(found.map { "\($0.id)" } ?? "nil"), "
                            + "the model says \(expected.map { "\($0)" } ?? "nil")")
                }
                if let found, lists[list].contains(wrap(found)) {
                    throw failure("list \(list).contains(\(found.id)) is true for a delegate registered owned")
                }
            }
        }
        guard liveness else { return }
        var stillAlive: [Int] = []
        for id in alive {
            let isAlive = probes[id].object != nil
            if let expected = model.expectedLife(of: id), isAlive != expected {
                throw failure("delegate \(id) is \(describe(id))")
            }
            if isAlive { stillAlive.append(id) }
        }
        alive = stillAlive
        for id in owners.indices where (owners[id].object != nil) != model.owners[id].isAlive {
            throw failure("\(describe(owner: id))")
        }
    }

    /// A pass, in lockstep with a ``ModelPass``: each delegate it calls must be the one the model expects.
    func pass(list: Int, kind: PassKind, script: UInt64, depth: Int) throws {
        statistics.passes += 1
        passesUnderWay[list] += 1
        defer { passesUnderWay[list] -= 1 }
        var random = SplitMix64(seed: script)
        var ownedRandom = SplitMix64(seed: ~script)
        var expected = ModelPass(list: list, model: model)
        var visited: [Int] = []
        var askedToStop = false
        let mayStop = ![.call, .map].contains(kind)
        // The multicast's own passes keep the owner that their weak load returned through the turn; iteration
        // (and `map`, which iterates) returns the delegate alone.
        let keepsOwner = ![.iterate, .map].contains(kind)
        let multicast = lists[list]
        let name = "pass .\(kind) over list \(list) (depth \(depth))"

        /// One delegate's turn; returns whether the pass should stop.
        func turn(_ delegate: Delegate) throws -> Bool {
            let id = unwrap(delegate).id
            guard !askedToStop else { throw failure("\(name) called \(id) after its body asked to stop") }
            let next = expected.next(in: model)?.probe
            guard next == id else {
                throw failure(
                    "\(name) called \(id) after \(visited); the model expected \(next.map { "\($0)" } ?? "none")")
            }
            visited.append(id)
            statistics.visits += 1
            model.probes[id].pins += 1
            defer { model.probes[id].pins -= 1 }
            let owner = model.probes[id].owner
            if let owner {
                statistics.ownedVisits += 1
                if keepsOwner { model.owners[owner].pins += 1 }
            }
            defer { if let owner, keepsOwner { model.owners[owner].pins -= 1 } }
            for action in FuzzOp.turn(&random, owned: &ownedRandom, depth: depth) {
                statistics.turnActions += 1
                try perform(action, current: id, depth: depth)
            }
            askedToStop = mayStop && random.below(4) == 0
            return askedToStop
        }

        switch kind {
        case .call:
            try multicast.call { _ = try turn($0) }
        case .iterate:
            for delegate in multicast where try turn(delegate) {
                break
            }
        case .map:
            let ids = try multicast.map {
                _ = try turn($0)
                return unwrap($0).id
            }
            guard ids == visited else { throw failure("\(name) returned \(ids) but visited \(visited)") }
        case .first:
            let found = try multicast.first { try turn($0) }.map { unwrap($0).id }
            guard found == (askedToStop ? visited.last : nil) else {
                throw failure("\(name) found \(String(describing: found)) after visiting \(visited)")
            }
        case .containsWhere:
            let found = try multicast.contains { try turn($0) }
            guard found == askedToStop else { throw failure("\(name) returned \(found)") }
        case .allSatisfy:
            let all = try multicast.allSatisfy { try !turn($0) }
            guard all == !askedToStop else { throw failure("\(name) returned \(all)") }
        case .throwing:
            do {
                try multicast.call {
                    if try turn($0) { throw Stop() }
                }
                guard !askedToStop else { throw failure("\(name) did not rethrow") }
            } catch is Stop {
                guard askedToStop else { throw failure("\(name) threw a Stop its body never threw") }
            }
        }
        if !askedToStop, let missing = expected.next(in: model) {
            throw failure("\(name) ended after \(visited); the model expected \(missing.probe) next")
        }
    }
}
