/// Heap bytes per registered delegate, with `size` delegates.
///
/// The receivers are weakly referenced before the count starts, so the figure leaves out the side table
/// that the Swift runtime allocates for any object the first time something references it weakly: that
/// cost is the object's, whoever holds the first weak reference.
func measureMemory(size: Int) -> [String: Double] {
    var results: [String: Double] = [:]
    for type in callContenders {
        let receivers = (0..<size).map { _ in Counter() }
        let weakReferences = WeakFloor(receivers)  // creates every receiver's side table
        let before = heapBytesInUse()
        let contender = type.init(receivers)
        let after = heapBytesInUse()
        withExtendedLifetime((receivers, contender, weakReferences)) {}
        results[type.name] = Double(after - before) / Double(size)
    }
    return results
}

/// Heap bytes per live delegate of Multicast (weak) with `size` delegates: quiet, then after `nanoseconds` of
/// churn with a permanent caller (the median of five samples near the end, while both threads run).
func measureChurnMemory(size: Int, nanoseconds: UInt64) -> (quiet: Double, churned: Double) {
    let receivers = (0..<size).map { _ in Counter() }
    let weakReferences = WeakFloor(receivers)  // creates every receiver's side table, as `measureMemory` does
    let before = heapBytesInUse()
    let contender = MulticastWeak(receivers)
    let quiet = heapBytesInUse() - before
    var churned: [Int] = []
    churned.reserveCapacity(5)
    _ = churn(contender, receivers, churning: true, nanoseconds: nanoseconds) {
        churned.append(heapBytesInUse() - before)
    }
    check(isExact(contender, receivers), "a delegate was lost under churn")
    withExtendedLifetime(weakReferences) {}
    return (Double(quiet) / Double(size), Double(churned.sorted()[churned.count / 2]) / Double(size))
}
