/// Adds one delegate and removes it again while `others` stay registered: nanoseconds per pair. This is what
/// a screen costs that subscribes when it appears and goes away with its controller.
func measurePairs(others: Int, settings: Settings) -> [String: Figure] {
    let receivers = (0..<others).map { _ in Counter() }
    // A few newcomers in turn, so that no contender can keep a lookup cached for one object.
    let newcomers = (0..<16).map { _ in Counter() }
    let measurements = pairingContenders.map { (type: any Registering.Type) -> () -> Double in
        return { () -> Double in
            let contender = type.init(receivers)
            func pairs(_ count: Int) {
                for round in 0..<count {
                    let newcomer = newcomers[round & 15]
                    contender.register(newcomer)
                    contender.unregister(newcomer)
                }
            }
            let repetitions = calibrate(target: settings.sampleNanoseconds, pairs)
            let start = now()
            pairs(repetitions)
            let elapsed = now() - start
            contender.callAll(1)
            check(newcomers.allSatisfy { $0.total == 0 }, "\(type.name): a removed delegate was called")
            return Double(elapsed) / Double(repetitions)
        }
    }
    let figures = interleave(samples: settings.samples, measurements)
    return Dictionary(uniqueKeysWithValues: zip(pairingContenders.map { $0.name }, figures))
}
