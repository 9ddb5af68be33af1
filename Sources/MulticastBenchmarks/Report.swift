import Foundation

/// Everything one run measured, and the targets it is held to.
struct Report {
    var settings: Settings
    var calls: [Int: [String: Figure]] = [:]
    var empty: [String: Figure] = [:]
    var registration: [Int: [String: Figure]] = [:]
    /// One delegate added and removed among `Settings.pairOthers` others, ns per pair.
    var pairs: [String: Figure] = [:]
    /// Fresh delegates added to a new multicast and removed in a shuffled order, ns per operation, by size.
    var bulk: [Int: [String: Figure]] = [:]
    /// One owner's registration replaced among N owned registrations, ns per replace, by N.
    var replace: [Int: Figure] = [:]
    var memory: [String: Double] = [:]
    var churn: [Int: [String: ChurnFigures]] = [:]
    /// Heap bytes per live delegate of Multicast (weak), quiet and after churn; nil where the heap is not measured.
    var churnMemory: (quiet: Double, churned: Double)?
    var allocations: [String: [Int: Double]] = [:]
    var asyncDelivery: [Int: [String: Figure]] = [:]

    /// Runs the scenarios this build measures, one after another: a debug build only the calls, adding and
    /// removing one delegate among many, bulk registration, replacing an owned registration, and the allocation
    /// count.
    static func run(_ settings: Settings) -> Report {
        var report = Report(settings: settings)
        for size in settings.callSizes {
            log("call, N = \(size)")
            report.calls[size] = measureCalls(size: size, settings: settings)
        }
        log("call, no delegates")
        report.empty = measureCalls(size: 0, settings: settings)
        log("add + remove one delegate among \(settings.pairOthers)")
        report.pairs = measurePairs(others: settings.pairOthers, settings: settings)
        report.measureRegistrationInBulk()
        if build == "debug" {
            log("allocations per call (valgrind)")
            report.allocations = countAllocations(settings.allocationContenders, sizes: settings.allocationSizes)
            return report
        }
        for size in settings.callSizes {
            log("async delivery, N = \(size)")
            report.asyncDelivery[size] = measureAsyncDelivery(size: size, settings: settings)
        }
        for size in settings.registrationSizes {
            log("add + remove, N = \(size)")
            report.registration[size] = measureRegistration(size: size, settings: settings)
        }
        if heapIsMeasured {
            log("memory")
            report.memory = measureMemory(size: 10_000)
        }
        for size in settings.churnSizes {
            log("call under churn, N = \(size)")
            report.churn[size] = measureChurn(size: size, settings: settings)
        }
        if heapIsMeasured {
            log("memory under churn, N = 1000, \(Double(settings.churnMemoryNanoseconds) / 1e9) s")
            report.churnMemory = measureChurnMemory(size: 1000, nanoseconds: settings.churnMemoryNanoseconds)
        }
        log("allocations per call (valgrind)")
        report.allocations = countAllocations(settings.allocationContenders, sizes: settings.allocationSizes)
        return report
    }

    /// Measures the bulk registration and the replace scenarios: what `--bulk-only` runs.
    mutating func measureRegistrationInBulk() {
        for size in settings.bulkSizes {
            Report.log("bulk registration, N = \(size)")
            bulk[size] = measureBulk(size: size, settings: settings)
        }
        for size in settings.replaceSizes {
            Report.log("replace one owner's registration among \(size)")
            replace[size] = measureReplace(size: size, settings: settings)
        }
    }

    /// Says on standard error which scenario runs, apart from the tables on standard output.
    static func log(_ message: String) {
        FileHandle.standardError.write(Data("… \(message)\n".utf8))
    }

    /// The median nanoseconds per delegate call of `name` with `size` delegates (NaN when not measured).
    func median(_ name: String, _ size: Int) -> Double { calls[size]?[name]?.median ?? .nan }
}
