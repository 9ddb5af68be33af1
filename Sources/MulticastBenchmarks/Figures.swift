// The figures that Scripts/check-figures.sh holds: each runs one operation of Multicast a given number of times,
// inside `measuredRegion`, for callgrind to count the instructions and heap allocations of the region alone
// (`--toggle-collect=benchmark_measured`). Two runs with different counts give the cost of one operation;
// the script divides by what an operation is made of (the delegates a call visits, the adds and removes of a
// bulk sample).

import Multicast
import _BenchmarkSupport

/// Runs `body` where callgrind counts: in `benchmark_measured`, the one function that its `--toggle-collect`
/// names, so that what a figure sets up and tears down around it is not counted.
func measuredRegion(_ body: () -> Void) {
    withoutActuallyEscaping(body) { body in
        var body = body
        withUnsafeMutablePointer(to: &body) { context in
            benchmark_measured({ context in context!.assumingMemoryBound(to: (() -> Void).self).pointee() }, context)
        }
    }
}

/// One figure: what it sets up, and the operation that it repeats in the measured region.
struct FigureOperation: Sendable {
    let name: String
    /// What one repetition is made of, to divide by: the figure is per delegate, per pair, per add or remove.
    let unit: String
    let operationsPerRepetition: Int
    /// Sets the figure up, and returns what runs `count` repetitions, in the measured region or not.
    let make: @Sendable () -> (_ count: Int) -> Void
}

/// The figures, by name. Each call figure visits delegates that are alive; a pair, bulk or replace figure checks
/// afterwards that no removed delegate was called, as the benchmark's scenarios do. The loops in the measured
/// region are `while` loops over pointers, which cost an unoptimized build no call and no allocation, so that the
/// figures count Multicast, not the loop.
let figureOperations: [FigureOperation] = [
    callFigure("call.empty", size: 0, holding: .weak),
    callFigure("call.weak.1", size: 1, holding: .weak),
    callFigure("call.strong.1", size: 1, holding: .strong),
    callFigure("call.weak.1000", size: 1000, holding: .weak),
    callFigure("call.strong.1000", size: 1000, holding: .strong),
    callFigure("call.owned.1000", size: 1000, holding: .owned),
    iterationFigure("iterate.weak.1000", holding: .weak),
    iterationFigure("iterate.strong.1000", holding: .strong),
    pairFigure("pair.weak.1000", holding: .weak),
    pairFigure("pair.strong.1000", holding: .strong),
    pairFigure("pair.owned.1000", holding: .owned),
    bulkFigure("bulk.weak.in-order.1000", MulticastWeak.self, shuffled: false),
    bulkFigure("bulk.weak.shuffled.1000", MulticastWeak.self, shuffled: true),
    bulkFigure("bulk.strong.shuffled.1000", MulticastStrong.self, shuffled: true),
    bulkFigure("bulk.owned.shuffled.1000", MulticastOwned.self, shuffled: true),
    FigureOperation(name: "replace.1000", unit: "replace", operationsPerRepetition: 1) {
        let replacing = Replacing(size: 1000)
        return { count in
            measuredRegion { replacing.replace(count) }
            replacing.checkEachCalledOnce()
        }
    },
    FigureOperation(name: "events.1", unit: "event", operationsPerRepetition: 1) {
        let values = MulticastDelegate<any Receiver>()
        return { count in
            // Unbounded, so that every event is kept: what an event costs a stream whose consumer keeps up,
            // amortized over the buffer's growth.
            let events = values.events(of: Int.self, bufferingPolicy: .unbounded, StreamForwarder.init)
            measuredRegion {
                var repetition = 0
                while repetition < count {
                    values.call { $0.receive(1) }
                    repetition += 1
                }
            }
            withExtendedLifetime(events) {}
        }
    },
]

/// How a figure's multicast holds its delegates.
enum FigureHolding {
    case weak, strong, owned
}

/// A multicast that holds `receivers` as `holding` says, and the owners of owned ones, which the caller keeps.
func makeMulticast(_ receivers: [Counter], holding: FigureHolding) -> (MulticastDelegate<any Receiver>, [Owner]) {
    let delegates = MulticastDelegate<any Receiver>()
    let owners = receivers.map { _ in Owner() }
    for (receiver, owner) in zip(receivers, owners) {
        switch holding {
        case .weak: delegates.add(receiver)
        case .strong: delegates.add(receiver, retention: .strong)
        case .owned: delegates.add(receiver, ownedBy: owner)
        }
    }
    return (delegates, owners)
}

/// A figure of a call to `size` delegates: per delegate, or per call when there are fewer than two.
func callFigure(_ name: String, size: Int, holding: FigureHolding) -> FigureOperation {
    FigureOperation(name: name, unit: size > 1 ? "delegate" : "call", operationsPerRepetition: Swift.max(size, 1)) {
        let receivers = (0..<size).map { _ in Counter() }
        let (delegates, owners) = makeMulticast(receivers, holding: holding)
        return { count in
            measuredRegion {
                var repetition = 0
                while repetition < count {
                    delegates.call { $0.receive(1) }
                    repetition += 1
                }
            }
            check(receivers.allSatisfy { $0.total == count }, "\(name): a delegate missed calls")
            withExtendedLifetime((receivers, owners)) {}
        }
    }
}

/// A figure of a `for in` loop over 1,000 delegates: per delegate.
func iterationFigure(_ name: String, holding: FigureHolding) -> FigureOperation {
    FigureOperation(name: name, unit: "delegate", operationsPerRepetition: 1000) {
        let receivers = (0..<1000).map { _ in Counter() }
        let (delegates, owners) = makeMulticast(receivers, holding: holding)
        return { count in
            measuredRegion {
                var repetition = 0
                while repetition < count {
                    for delegate in delegates { delegate.receive(1) }
                    repetition += 1
                }
            }
            check(receivers.allSatisfy { $0.total == count }, "\(name): a delegate missed calls")
            withExtendedLifetime((receivers, owners)) {}
        }
    }
}

/// A figure of an add and a remove among 1,000 delegates, as the pairs scenario makes them: per pair. Its 256
/// newcomers take turns, so that the figure is the mean over many addresses, which decide how far a lookup probes:
/// with a few, where the heap happens to put them moves it by several percent.
func pairFigure(_ name: String, holding: FigureHolding) -> FigureOperation {
    FigureOperation(name: name, unit: "pair", operationsPerRepetition: 1) {
        let receivers = (0..<1000).map { _ in Counter() }
        let (delegates, owners) = makeMulticast(receivers, holding: holding)
        let newcomers = (0..<256).map { _ in Counter() }
        let newOwners = newcomers.map { _ in Owner() }
        return { count in
            newcomers.withUnsafeBufferPointer { newcomers in
                newOwners.withUnsafeBufferPointer { newOwners in
                    let (newcomer, newOwner) = (newcomers.baseAddress!, newOwners.baseAddress!)
                    measuredRegion {
                        var round = 0
                        while round < count {
                            switch holding {
                            case .weak:
                                delegates.add(newcomer[round & 255])
                                delegates.remove(newcomer[round & 255])
                            case .strong:
                                delegates.add(newcomer[round & 255], retention: .strong)
                                delegates.remove(newcomer[round & 255])
                            case .owned:
                                delegates.add(newcomer[round & 255], ownedBy: newOwner[round & 255])
                                delegates.remove(ownedBy: newOwner[round & 255])
                            }
                            round += 1
                        }
                    }
                }
            }
            delegates.call { $0.receive(1) }
            check(newcomers.allSatisfy { $0.total == 0 }, "\(name): a removed delegate was called")
            withExtendedLifetime((receivers, owners)) {}
        }
    }
}

/// A figure of the bulk scenario at 1,000: fresh delegates added to a new multicast, then removed in the order
/// they were added or in the scenario's shuffled order, as its contenders make them; per add or remove. Only the
/// adds and removes are counted.
func bulkFigure(_ name: String, _ type: any Registering.Type, shuffled: Bool) -> FigureOperation {
    FigureOperation(name: name, unit: "add or remove", operationsPerRepetition: 2000) {
        let removalOrder = shuffled ? bulkRemovalOrder(1000) : Array(0..<1000)
        return { count in
            for _ in 0..<count {
                let receivers = (0..<1000).map { _ in Counter() }
                let contender = makeEmpty(type)
                let called = contender.prepare(receivers)
                receivers.withUnsafeBufferPointer { receivers in
                    removalOrder.withUnsafeBufferPointer { removalOrder in
                        let (delegates, order) = (receivers.baseAddress!, removalOrder.baseAddress!)
                        measuredRegion {
                            var position = 0
                            while position < 1000 {
                                contender.register(delegates[position])
                                position += 1
                            }
                            position = 0
                            while position < 1000 {
                                contender.unregister(delegates[order[position]])
                                position += 1
                            }
                        }
                    }
                }
                contender.callAll(1)
                check(called.allSatisfy { $0.total == 0 }, "\(name): a removed delegate was called")
            }
        }
    }
}

/// A forwarder of `Receiver` calls into an event stream.
final class StreamForwarder: Receiver {
    let continuation: AsyncStream<Int>.Continuation

    init(_ continuation: AsyncStream<Int>.Continuation) {
        self.continuation = continuation
    }

    func receive(_ value: Int) {
        continuation.yield(value)
    }
}

extension MulticastBenchmarks {
    /// `--figure NAME COUNT`: sets figure NAME up and runs `COUNT` repetitions of it in the measured region;
    /// `--figure --list` prints each figure's name, repetition size and unit, for Scripts/check-figures.sh.
    static func figureAlone(_ arguments: [String]) {
        if arguments == ["--list"] {
            for figure in figureOperations {
                print(figure.name, figure.operationsPerRepetition, figure.unit.replacingSpaces)
            }
            return
        }
        guard arguments.count == 2, let count = Int(arguments[1]), count >= 0,
            let figure = figureOperations.first(where: { $0.name == arguments[0] })
        else { usage("--figure takes a figure's name and COUNT, or --list") }
        figure.make()(count)
    }
}

extension String {
    /// The unit as one word of the list: `add-or-remove`.
    fileprivate var replacingSpaces: String {
        split(separator: " ").joined(separator: "-")
    }
}
