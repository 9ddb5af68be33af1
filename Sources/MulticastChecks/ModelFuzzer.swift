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

    package init() {}

    package mutating func merge(_ other: FuzzStatistics) {
        operations += other.operations
        turnActions += other.turnActions
        passes += other.passes
        visits += other.visits
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

/// Throws to stop a `.throwing` pass.
private struct Stop: Error {}

/// One random program's real multicasts, delegates and model.
final class FuzzRunner<Delegate> {
    let wrap: (FuzzProbe) -> Delegate
    let unwrap: (Delegate) -> FuzzProbe
    var lists: [MulticastDelegate<Delegate>] = (0..<FuzzShape.lists).map { _ in MulticastDelegate() }
    /// The harness's own references: the only strong references to delegates outside the multicasts.
    var handles = [FuzzProbe?](repeating: nil, count: FuzzShape.handles)
    /// Every delegate created, by id, to see which are deallocated.
    var probes: [WeakProbe] = []
    var model = ReferenceModel()
    var step = 0
    var statistics = FuzzStatistics()
    var weakAdds = 0

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
                try compare(liveness: true)
            }
            step = program.count
            // Strong retention: the multicasts' deinit releases their strong delegates.
            lists.removeAll()
            for id in probes.indices where (probes[id].object != nil) != model.probes[id].held {
                throw failure("after the multicasts were deallocated, delegate \(id) is \(describe(id))")
            }
            handles = []
            if let id = probes.indices.first(where: { probes[$0].object != nil }) {
                throw failure("delegate \(id) outlived every reference to it: a leak")
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
        return "\(alive ? "alive" : "deallocated") (\(state.strong ? "strong" : "weak"), "
            + "held by the harness: \(state.held), registered in lists "
            + "\(model.lists.indices.filter { model.isRegistered(id, in: $0) }))"
    }

    func perform(_ operation: FuzzOp, current: Int?, depth: Int) throws {
        switch operation {
        case .create(let handle, let strong):
            let id = model.create(handle: handle, strong: strong)
            let probe = FuzzProbe(id: id)
            probes.append(WeakProbe(object: probe))
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
        case .removeAll(let list):
            lists[list].removeAll()
            model.removeAll(list)
        case .release(let handle):
            handles[handle] = nil
            model.release(handle: handle)
        case .releaseSelf:
            guard let id = current, let handle = model.handles.firstIndex(of: id) else { return }
            handles[handle] = nil
            model.release(handle: handle)
        case .pass(let list, let kind, let script):
            try pass(list: list, kind: kind, script: script, depth: depth + 1)
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

    /// Compares `count`, `isEmpty` and `contains` of every held delegate; with `liveness`, also which delegates
    /// are alive (exact only outside passes: a pass's storage may keep removed strong delegates until it ends).
    func compare(liveness: Bool) throws {
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
        }
        guard liveness else { return }
        for id in probes.indices where (probes[id].object != nil) != model.isAlive(id) {
            throw failure("delegate \(id) is \(describe(id))")
        }
    }

    /// A pass, in lockstep with a ``ModelPass``: each delegate it calls must be the one the model expects.
    func pass(list: Int, kind: PassKind, script: UInt64, depth: Int) throws {
        statistics.passes += 1
        var random = SplitMix64(seed: script)
        var expected = ModelPass(list: list, model: model)
        var visited: [Int] = []
        var askedToStop = false
        let mayStop = ![.call, .map].contains(kind)
        let multicast = lists[list]
        let name = "pass .\(kind) over list \(list) (depth \(depth))"

        /// One delegate's turn; returns whether the pass should stop.
        func turn(_ delegate: Delegate) throws -> Bool {
            let id = unwrap(delegate).id
            guard !askedToStop else { throw failure("\(name) called \(id) after its body asked to stop") }
            let next = expected.next(in: model)
            guard next == id else {
                throw failure(
                    "\(name) called \(id) after \(visited); the model expected \(next.map { "\($0)" } ?? "none")")
            }
            visited.append(id)
            statistics.visits += 1
            model.probes[id].pins += 1
            defer { model.probes[id].pins -= 1 }
            for action in FuzzOp.turn(&random, depth: depth) {
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
            throw failure("\(name) ended after \(visited); the model expected \(missing) next")
        }
    }
}
