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
