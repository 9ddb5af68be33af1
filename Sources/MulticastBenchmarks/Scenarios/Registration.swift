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
