import Foundation

extension Report {
    /// Each target the benchmark is held to, in the order of the table.
    var targets: [Target] {
        build == "debug" ? debugTargets : releaseTargets
    }

    /// The targets of a debug build: as fast as NotificationCenter at its cheapest, built the same way, and no
    /// allocation.
    var debugTargets: [Target] {
        let largeSizes = settings.callSizes.filter { $0 >= 10 }
        var rows = [MulticastWeak.name, MulticastStrong.name].map { name in
            let speedup =
                largeSizes.map { median(NotificationCenterWeakNoPayload.name, $0) / median(name, $0) }.min() ?? .nan
            return Target.ratio("NotificationCenter [weak], no payload / \(name), N >= 10 (worst)", speedup, atLeast: 1)
        }
        let weakRatio = largeSizes.map { median(MulticastWeak.name, $0) / median(WeakFloor.name, $0) }.max() ?? .nan
        rows.append(.ratio("weak call / floor (ii), N >= 10 (worst; stretch)", weakRatio, atMost: 2))
        rows.append(ownedCallTarget)
        rows.append(allocationTarget)
        rows += pairTargets
        rows += bulkTargets
        rows += replaceTargets
        return rows
    }

    /// A call over owned registrations costs what a weak call costs, in the same run, within the tolerance of the
    /// weak call's own target against floor (ii).
    var ownedCallTarget: Target {
        let largeSizes = settings.callSizes.filter { $0 >= 10 }
        let ratio = largeSizes.map { median(MulticastOwned.name, $0) / median(MulticastWeak.name, $0) }.max() ?? .nan
        return .ratio("owned call / weak call, N >= 10 (worst)", ratio, atMost: 1.15)
    }

    /// Adding and removing one delegate among many costs no more than NotificationCenter's, in the same run.
    var pairTargets: [Target] {
        [MulticastWeak.name, MulticastStrong.name].map { name in
            .ratio(
                "NotificationCenter [weak] / \(name), add + remove among \(settings.pairOthers)",
                (pairs[NotificationCenterWeak.name]?.median ?? .nan) / (pairs[name]?.median ?? .nan), atLeast: 1)
        }
    }

    /// Adding many fresh delegates to a new multicast and removing them in a shuffled order costs no more per
    /// operation than NotificationCenter's, in the same run, at every size; so does a delegate made around a
    /// closure at each add and owned by its receiver, as a block observer is made at each add. A delegate made
    /// beforehand and owned by another object costs at most 1.3 times a strong one's add and remove.
    var bulkTargets: [Target] {
        settings.bulkSizes.flatMap { size in
            let figures = bulk[size] ?? [:]
            func median(_ name: String) -> Double { figures[name]?.median ?? .nan }
            let center = [MulticastWeak.name, MulticastStrong.name, MulticastOwnedClosure.name].map { name in
                Target.ratio(
                    "NotificationCenter [weak] / \(name), bulk add + remove of \(size) fresh",
                    median(NotificationCenterWeak.name) / median(name), atLeast: 1)
            }
            let owned = Target.ratio(
                "\(MulticastOwned.name) / \(MulticastStrong.name), bulk add + remove of \(size) fresh",
                median(MulticastOwned.name) / median(MulticastStrong.name), atMost: 1.3)
            return center + [owned]
        }
    }

    /// Replacing one owner's registration costs the same among many registrations as among few: O(1), within
    /// the noise of a shared machine and of the larger multicast's memory outside the cache.
    var replaceTargets: [Target] {
        guard let small = settings.replaceSizes.first, let large = settings.replaceSizes.last, large > small else {
            return []
        }
        return [
            .ratio(
                "replace one owner's registration, among \(large) / among \(small)",
                (replace[large]?.median ?? .nan) / (replace[small]?.median ?? .nan), atMost: 1.5)
        ]
    }

    /// The heap allocations per call counted for Multicast, weak, strong and owned, at every N counted.
    var multicastAllocations: [Double] {
        [MulticastWeak.name, MulticastStrong.name, MulticastOwned.name].compactMap { allocations[$0] }.flatMap(
            \.values)
    }

    /// The heap allocations of Multicast's calls: none, at every N counted.
    var allocationTarget: Target {
        let figure = "heap allocations per call, any N"
        guard let most = multicastAllocations.max() else {
            return Target(figure: figure, value: "not counted (no valgrind)", target: "0", met: nil)
        }
        return Target(figure: figure, value: String(format: "%.2f", most), target: "0", met: most == 0)
    }

    /// The targets of a release build.
    var releaseTargets: [Target] {
        var rows: [Target] = []
        let largeSizes = settings.callSizes.filter { $0 >= 10 }
        let weakRatio = largeSizes.map { median(MulticastWeak.name, $0) / median(WeakFloor.name, $0) }.max() ?? .nan
        rows.append(.ratio("weak call / floor (ii), N >= 10 (worst)", weakRatio, atMost: 1.15))
        let singleRatio = median(MulticastWeak.name, 1) / median(WeakFloor.name, 1)
        rows.append(.ratio("weak call / floor (ii), N = 1", singleRatio, atMost: 2))
        rows.append(.ratio("weak call / floor (ii), N = 1 (stretch)", singleRatio, atMost: 1.3))
        let strongRatio =
            largeSizes.map { median(MulticastStrong.name, $0) / median(StrongFloor.name, $0) }.max() ?? .nan
        rows.append(.ratio("strong call / floor (i), N >= 10 (worst)", strongRatio, atMost: 1.3))
        rows.append(ownedCallTarget)
        let speedup =
            largeSizes.map { median(NotificationCenterWeak.name, $0) / median(MulticastWeak.name, $0) }.min() ?? .nan
        rows.append(.ratio("NotificationCenter [weak] / weak call, N >= 10 (worst)", speedup, atLeast: 1.8, digits: 1))
        let messageSpeedup =
            settings.callSizes.map { median(mainActorMessageName, $0) / median(MulticastMainActor.name, $0) }
            .min() ?? .nan
        rows.append(
            .ratio(
                "MainActorMessage [weak] / @MainActor weak call, any N (worst)", messageSpeedup, atLeast: 2, digits: 1))
        let asyncSpeedup =
            settings.callSizes.compactMap { size in
                asyncDelivery[size].map {
                    ($0[asyncMessageName]?.median ?? .nan) / ($0[MulticastConcurrentCall.name]?.median ?? .nan)
                }
            }.min() ?? .nan
        // Both start a task per delegate: on par, within the noise of task scheduling on a shared machine.
        rows.append(
            .ratio("AsyncMessage [weak] / concurrently.call, until all ran, any N (worst)", asyncSpeedup, atLeast: 0.8))
        rows.append(allocationTarget)
        rows += pairTargets
        rows += bulkTargets
        rows += replaceTargets
        if let small = registration[settings.registrationSizes.first!]?[MulticastWeak.name]?.median,
            let large = registration[settings.registrationSizes.last!]?[MulticastWeak.name]?.median,
            let center = registration[settings.registrationSizes.last!]?[NotificationCenterWeak.name]?.median
        {
            rows.append(.ratio("add + remove per op, 100k / 1k", large / small, atMost: 3))
            rows.append(
                .ratio(
                    "add + remove per op at 100k, NotificationCenter / Multicast", center / large, atLeast: 1, digits: 1
                ))
        }
        let bytes = memory[MulticastWeak.name] ?? .nan
        rows.append(
            Target(
                figure: "bytes per weak delegate", value: bytes.isNaN ? "not measured" : String(format: "%.0f", bytes),
                target: "<= 64", met: bytes.isNaN ? nil : bytes <= 64))
        let center = NotificationCenterWeak.name
        let quiet = MulticastWeak.name + ", quiet"
        for size in settings.churnSizes {
            let figures = churn[size] ?? [:]
            func calls(_ name: String) -> Double { figures[name]?.calls.median ?? .nan }
            func pairs(_ name: String) -> Double { figures[name]?.pairs.median ?? .nan }
            rows.append(
                .ratio(
                    "calls under churn, Multicast / NotificationCenter, N = \(size)",
                    calls(MulticastWeak.name) / calls(center), atLeast: size >= 10_000 ? 2 : 1.5))
            rows.append(
                .ratio(
                    "calls under churn / quiet calls, Multicast, N = \(size)",
                    calls(MulticastWeak.name) / calls(quiet), atLeast: 0.5))
            rows.append(
                .ratio(
                    "remove + add pairs under churn, Multicast / NotificationCenter, N = \(size)",
                    pairs(MulticastWeak.name) / pairs(center), atLeast: 2))
        }
        let churned = churnMemory.map { $0.churned / $0.quiet } ?? .nan
        rows.append(.ratio("bytes per live delegate after churn / quiet, N = 1000", churned, atMost: 2))
        return rows
    }
}
