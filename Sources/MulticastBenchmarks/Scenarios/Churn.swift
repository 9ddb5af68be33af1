import Foundation
import MulticastChecks

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
    let stop = Guarded(false)  // set by this thread, polled by the removing one
    let pairs = Delivered<Int>()
    if churning {
        let targets = receivers.map(UnsafeReceiver.init)
        Thread {
            var random = SplitMix64(seed: UInt64(targets.count))
            var count = 0
            while count % 64 != 0 || !stop.value {
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
    stop.value = true
    return (seconds, churning ? pairs.wait() : 0)
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
