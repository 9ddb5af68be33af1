import MulticastChecks

/// Adds `size` fresh delegates to a new contender, then removes them all in a seeded shuffled order:
/// nanoseconds per operation (an add or a remove). This is what an app's screens, or a test's fixtures, cost
/// when a whole set of new objects subscribes at once and goes away in no particular order.
///
/// Each sample makes new delegates, which nothing has referenced weakly yet, and a new contender; neither is
/// timed, and neither is the delegates' deallocation. A contender whose receivers own their delegates makes
/// those untimed too (`prepare(_:)`). Every contender removes in the same order.
func measureBulk(size: Int, settings: Settings) -> [String: Figure] {
    let removalOrder = bulkRemovalOrder(size)
    // The linear-scan designs are quadratic: past 10k they would run for minutes.
    let contenders = bulkContenders.filter { size <= 10_000 || !isQuadratic($0) }
    // A sample at 1,000 lasts a fraction of a millisecond, so its median needs many: with the run's 15, the
    // ratio of two contenders' medians moved by a tenth from run to run; with 90, by a twentieth.
    let samples = size >= 100_000 ? settings.samples : settings.samples * 6
    let measurements = contenders.map { (type: any Registering.Type) -> () -> Double in
        return { bulkRegistration(type, size: size, removalOrder: removalOrder) }
    }
    let figures = interleave(samples: samples, measurements)
    return Dictionary(uniqueKeysWithValues: zip(contenders.map { $0.name }, figures))
}

/// Whether a contender of the bulk scenario scans its delegates on every removal.
func isQuadratic(_ type: any Registering.Type) -> Bool {
    type == SeedOneStyle.self || type == SeedTwoStyle.self
}

/// The order in which the bulk scenario removes `size` delegates: a permutation of `0..<size`, the same in
/// every run.
func bulkRemovalOrder(_ size: Int) -> [Int] {
    var random = SplitMix64(seed: 0x4D75_6C74_6963_6173 ^ UInt64(size))
    return Array(0..<size).shuffled(using: &random)
}

/// One sample of the bulk scenario: `size` new delegates added to a new `type`, then removed in
/// `removalOrder`; nanoseconds per operation.
func bulkRegistration(_ type: any Registering.Type, size: Int, removalOrder: [Int]) -> Double {
    let receivers = (0..<size).map { _ in Counter() }
    let contender = makeEmpty(type)
    let called = contender.prepare(receivers)
    let start = now()
    for receiver in receivers { contender.register(receiver) }
    for position in removalOrder { contender.unregister(receivers[position]) }
    let elapsed = now() - start
    contender.callAll(1)
    check(called.allSatisfy { $0.total == 0 }, "\(type.name): a removed delegate was called")
    return Double(elapsed) / Double(2 * size)
}
