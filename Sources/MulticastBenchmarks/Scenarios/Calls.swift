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
