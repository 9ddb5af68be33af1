import Foundation
import MulticastChecks

/// Everything one run measured, and the targets it is held to.
struct Report {
    var settings: Settings
    var calls: [Int: [String: Figure]] = [:]
    var empty: [String: Figure] = [:]
    var registration: [Int: [String: Figure]] = [:]
    var memory: [String: Double] = [:]
    var churn: [Int: [String: ChurnFigures]] = [:]
    /// Heap bytes per live delegate of Multicast (weak), quiet and after churn; nil where the heap is not measured.
    var churnMemory: (quiet: Double, churned: Double)?
    var allocations: [String: [Int: Double]] = [:]
    var asyncDelivery: [Int: [String: Figure]] = [:]

    static func run(_ settings: Settings) -> Report {
        var report = Report(settings: settings)
        for size in settings.callSizes {
            log("call, N = \(size)")
            report.calls[size] = measureCalls(size: size, settings: settings)
        }
        log("call, no delegates")
        report.empty = measureCalls(size: 0, settings: settings)
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

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("… \(message)\n".utf8))
    }

    func median(_ name: String, _ size: Int) -> Double { calls[size]?[name]?.median ?? .nan }

    /// Each target the benchmark is held to: its figure, the limit, and whether it is met (nil: not measured).
    var targets: [(figure: String, value: String, target: String, met: Bool?)] {
        build == "debug" ? debugTargets : releaseTargets
    }

    /// The targets of a debug build: as fast as NotificationCenter at its cheapest, built the same way, and no
    /// allocation.
    var debugTargets: [(figure: String, value: String, target: String, met: Bool?)] {
        var rows: [(figure: String, value: String, target: String, met: Bool?)] = []
        func ratio(_ figure: String, _ value: Double, atLeast limit: Double? = nil, atMost: Double? = nil) {
            let text = value.isNaN ? "not measured" : String(format: "%.2fx", value)
            if let limit {
                rows.append((figure, text, ">= \(limit)x", value.isNaN ? nil : value >= limit))
            } else if let atMost {
                rows.append((figure, text, "<= \(atMost)x", value.isNaN ? nil : value <= atMost))
            }
        }
        let largeSizes = settings.callSizes.filter { $0 >= 10 }
        for name in [MulticastWeak.name, MulticastStrong.name] {
            let speedup =
                largeSizes.map { median(NotificationCenterWeakNoPayload.name, $0) / median(name, $0) }.min() ?? .nan
            ratio("NotificationCenter [weak], no payload / \(name), N >= 10 (worst)", speedup, atLeast: 1)
        }
        let weakRatio = largeSizes.map { median(MulticastWeak.name, $0) / median(WeakFloor.name, $0) }.max() ?? .nan
        ratio("weak call / floor (ii), N >= 10 (worst; stretch)", weakRatio, atMost: 2)
        rows.append(allocationTarget)
        return rows
    }

    /// The heap allocations of Multicast's calls: none, at every N counted.
    var allocationTarget: (figure: String, value: String, target: String, met: Bool?) {
        let counted = [MulticastWeak.name, MulticastStrong.name].compactMap { allocations[$0] }.flatMap(\.values)
        guard let most = counted.max() else {
            return ("heap allocations per call, any N", "not counted (no valgrind)", "0", nil)
        }
        return ("heap allocations per call, any N", String(format: "%.2f", most), "0", most == 0)
    }

    /// The targets of a release build.
    var releaseTargets: [(figure: String, value: String, target: String, met: Bool?)] {
        var rows: [(String, String, String, Bool?)] = []
        func ratio(_ figure: String, _ value: Double, atMost limit: Double, digits: Int = 2) {
            let text = value.isNaN ? "not measured" : String(format: "%.\(digits)fx", value)
            rows.append((figure, text, "<= \(limit)x", value.isNaN ? nil : value <= limit))
        }
        func ratio(_ figure: String, _ value: Double, atLeast limit: Double, digits: Int = 2) {
            let text = value.isNaN ? "not measured" : String(format: "%.\(digits)fx", value)
            rows.append((figure, text, ">= \(limit)x", value.isNaN ? nil : value >= limit))
        }
        let largeSizes = settings.callSizes.filter { $0 >= 10 }
        let weakRatio = largeSizes.map { median(MulticastWeak.name, $0) / median(WeakFloor.name, $0) }.max() ?? .nan
        ratio("weak call / floor (ii), N >= 10 (worst)", weakRatio, atMost: 1.15)
        let singleRatio = median(MulticastWeak.name, 1) / median(WeakFloor.name, 1)
        ratio("weak call / floor (ii), N = 1", singleRatio, atMost: 2)
        ratio("weak call / floor (ii), N = 1 (stretch)", singleRatio, atMost: 1.3)
        let strongRatio =
            largeSizes.map { median(MulticastStrong.name, $0) / median(StrongFloor.name, $0) }.max() ?? .nan
        ratio("strong call / floor (i), N >= 10 (worst)", strongRatio, atMost: 1.3)
        let speedup =
            largeSizes.map { median(NotificationCenterWeak.name, $0) / median(MulticastWeak.name, $0) }.min() ?? .nan
        ratio("NotificationCenter [weak] / weak call, N >= 10 (worst)", speedup, atLeast: 1.8, digits: 1)
        let messageSpeedup =
            settings.callSizes.map { median(mainActorMessageName, $0) / median(MulticastMainActor.name, $0) }
            .min() ?? .nan
        ratio("MainActorMessage [weak] / @MainActor weak call, any N (worst)", messageSpeedup, atLeast: 2, digits: 1)
        let asyncSpeedup =
            settings.callSizes.compactMap { size in
                asyncDelivery[size].map {
                    ($0[asyncMessageName]?.median ?? .nan) / ($0[MulticastCallConcurrently.name]?.median ?? .nan)
                }
            }.min() ?? .nan
        // Both start a task per delegate: on par, within the noise of task scheduling on a shared machine.
        ratio("AsyncMessage [weak] / callConcurrently, until all ran, any N (worst)", asyncSpeedup, atLeast: 0.8)
        rows.append(allocationTarget)
        if let small = registration[settings.registrationSizes.first!]?[MulticastWeak.name]?.median,
            let large = registration[settings.registrationSizes.last!]?[MulticastWeak.name]?.median,
            let center = registration[settings.registrationSizes.last!]?[NotificationCenterWeak.name]?.median
        {
            ratio("add + remove per op, 100k / 1k", large / small, atMost: 3)
            ratio("add + remove per op at 100k, NotificationCenter / Multicast", center / large, atLeast: 1, digits: 1)
        }
        let bytes = memory[MulticastWeak.name] ?? .nan
        rows.append(
            (
                "bytes per weak delegate", bytes.isNaN ? "not measured" : String(format: "%.0f", bytes), "<= 64",
                bytes.isNaN ? nil : bytes <= 64
            ))
        let center = NotificationCenterWeak.name
        let quiet = MulticastWeak.name + ", quiet"
        for size in settings.churnSizes {
            let figures = churn[size] ?? [:]
            func calls(_ name: String) -> Double { figures[name]?.calls.median ?? .nan }
            func pairs(_ name: String) -> Double { figures[name]?.pairs.median ?? .nan }
            ratio(
                "calls under churn, Multicast / NotificationCenter, N = \(size)",
                calls(MulticastWeak.name) / calls(center), atLeast: size >= 10_000 ? 2 : 1.5)
            ratio(
                "calls under churn / quiet calls, Multicast, N = \(size)", calls(MulticastWeak.name) / calls(quiet),
                atLeast: 0.5)
            ratio(
                "remove + add pairs under churn, Multicast / NotificationCenter, N = \(size)",
                pairs(MulticastWeak.name) / pairs(center), atLeast: 2)
        }
        let churned = churnMemory.map { $0.churned / $0.quiet } ?? .nan
        ratio("bytes per live delegate after churn / quiet, N = 1000", churned, atMost: 2)
        return rows.map { (figure: $0.0, value: $0.1, target: $0.2, met: $0.3) }
    }

    func printTables() {
        let machine =
            "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)"
        print(
            "# Multicast benchmarks, \(build) build (\(settings.samples) interleaved samples; median, min in parentheses;"
                + " \(machine))\n"
        )
        if build == "debug" {
            print(
                """
                Debug figures: Multicast, the contenders and this program are built without optimization, as an \
                app's debug build builds them; Foundation is the system's, optimized as always. Only the call \
                scenarios run; `swift run -c release MulticastBenchmarks` measures them all.

                """
            )
        }
        print("## call: ns per delegate\n")
        printTable(
            ["contender"] + settings.callSizes.map { "N = \($0)" } + ["no delegates (ns per call)"],
            callContenders.map { type in
                [type.name] + settings.callSizes.map { calls[$0]?[type.name]?.cell ?? "-" }
                    + [empty[type.name]?.cell ?? "-"]
            }
        )
        print("\n## call: ratio to floor (ii), in-place weak loads (median / median)\n")
        printBySize(callContenders.map { $0.name }, settings.callSizes) { name, size in
            String(format: "%.2fx", median(name, size) / median(WeakFloor.name, size))
        }
        print("\n## heap allocations per call (valgrind, difference of two call counts)\n")
        printBySize(callContenders.map { $0.name }, settings.callSizes) { name, size in
            allocations[name]?[size].map { String(format: "%.2f", $0) } ?? "-"
        }
        guard build == "release" else {
            print("\n## targets (debug build)\n")
            printTargets()
            return
        }
        print("\n## async delivery: ns per delegate, from the call until every delegate has run\n")
        printBySize(asyncContenders.map { $0.name }, settings.callSizes) { name, size in
            asyncDelivery[size]?[name]?.cell ?? "-"
        }
        print("\n## add then remove N distinct delegates: ns per operation\n")
        printBySize(registeringContenders.map { $0.name }, settings.registrationSizes) { name, size in
            registration[size]?[name]?.cell ?? "skipped (quadratic)"
        }
        print("\n## memory: heap bytes per registered delegate (N = 10,000; weak side tables excluded)\n")
        printTable(
            ["contender", "bytes"],
            callContenders.map { [$0.name, memory[$0.name].map { String(format: "%.0f", $0) } ?? "not measured"] })
        print(
            """

            ## under churn: one thread calls N live weak delegates in a loop while another removes a random \
            registered delegate and adds it back (\(settings.churnRounds) rounds of \
            \(settings.churnNanoseconds / 1_000_000) ms; median)

            """
        )
        printTable(
            ["contender"] + settings.churnSizes.flatMap { ["N = \($0): delegate calls/s", "remove + add pairs/s"] },
            churnContenders.map { contender in
                [contender.name]
                    + settings.churnSizes.flatMap { size -> [String] in
                        let figures = churn[size]?[contender.name]
                        return [
                            figures.map { String(format: "%.3g M", $0.calls.median / 1e6) } ?? "-",
                            contender.churning
                                ? figures.map { String(format: "%.0f k", $0.pairs.median / 1e3) } ?? "-" : "-",
                        ]
                    }
            }
        )
        let churnSeconds = Double(settings.churnMemoryNanoseconds) / 1e9
        print("\n## memory under churn: heap bytes per live delegate, Multicast (weak), N = 1000\n")
        printTable(
            ["state", "bytes"],
            [
                ["quiet", churnMemory.map { String(format: "%.0f", $0.quiet) } ?? "not measured"],
                [
                    "after \(String(format: "%g", churnSeconds)) s of churn with a permanent caller",
                    churnMemory.map { String(format: "%.0f", $0.churned) } ?? "not measured",
                ],
            ]
        )
        print("\n## targets\n")
        printTargets()
    }

    func printTargets() {
        printTable(
            ["figure", "measured", "target", "met"],
            targets.map { [$0.figure, $0.value, $0.target, $0.met.map { $0 ? "yes" : "NO" } ?? "not measured"] })
    }

    func json() throws -> Data {
        func figures(_ table: [Int: [String: Figure]]) -> [String: [String: [String: Double]]] {
            Dictionary(
                uniqueKeysWithValues: table.map { size, byName in
                    (String(size), byName.mapValues { ["median": $0.median, "min": $0.minimum] })
                })
        }
        let object: [String: Any] = [
            "build": build,
            "samples": settings.samples,
            "callNanosecondsPerDelegate": figures(calls),
            "emptyCallNanoseconds": empty.mapValues { ["median": $0.median, "min": $0.minimum] },
            "addRemoveNanosecondsPerOperation": figures(registration),
            "asyncDeliveryNanosecondsPerDelegate": figures(asyncDelivery),
            "bytesPerDelegate": memory,
            "churn": Dictionary(
                uniqueKeysWithValues: churn.map { size, byName in
                    (
                        String(size),
                        byName.mapValues {
                            $0.pairs.samples.isEmpty
                                ? ["callsPerSecond": $0.calls.median]
                                : ["callsPerSecond": $0.calls.median, "pairsPerSecond": $0.pairs.median]
                        }
                    )
                }),
            "churnBytesPerLiveDelegate": churnMemory.map { ["quiet": $0.quiet, "churned": $0.churned] } ?? [:],
            "allocationsPerCall": allocations.mapValues {
                Dictionary(uniqueKeysWithValues: $0.map { (String($0.key), $0.value) })
            },
            "targets": targets.map {
                [
                    "figure": $0.figure, "measured": $0.value, "target": $0.target,
                    "met": $0.met.map { $0 as Any } ?? NSNull(),
                ]
            },
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }
}

/// Whether this platform's C heap reports the bytes in use (glibc does).
let heapIsMeasured = heapBytesInUse() > 0

/// Heap allocations per call of `contenders` at each size, counted by running this program alone under
/// valgrind for two numbers of calls (two runs at a time); empty when valgrind is not installed.
func countAllocations(_ contenders: [any Contender.Type], sizes: [Int]) -> [String: [Int: Double]] {
    guard
        let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(
            where: FileManager.default.isExecutableFile)
    else {
        Report.log("valgrind not found: allocations not counted (apt-get install valgrind)")
        return [:]
    }
    guard let program = strippedCopyOfThisProgram() else {
        Report.log("strip failed: allocations not counted")
        return [:]
    }
    defer { try? FileManager.default.removeItem(atPath: program) }
    let (fewer, more) = (100, 300)
    let runs = contenders.flatMap { type in sizes.flatMap { size in [fewer, more].map { (type.name, size, $0) } } }
    let counts = Counts(runs.count)
    DispatchQueue.concurrentPerform(iterations: runs.count) { run in
        let (name, size, calls) = runs[run]
        counts[run] = heapAllocations(
            valgrind: valgrind,
            program: program,
            arguments: ["--count-allocations", name, String(size), String(calls)]
        )
    }
    var results: [String: [Int: Double]] = [:]
    for run in stride(from: 0, to: runs.count, by: 2) {
        if let low = counts[run], let high = counts[run + 1] {
            results[runs[run].0, default: [:]][runs[run].1] = Double(high - low) / Double(more - fewer)
        }
    }
    return results
}

/// Results that concurrent runs deliver.
final class Counts: @unchecked Sendable {
    private let lock = CheckLock()  // NSLock's withLock needs macOS 14
    private var values: [Int?]
    init(_ count: Int) { values = Array(repeating: nil, count: count) }
    subscript(index: Int) -> Int? {
        get { lock.withLock { values[index] } }
        set { lock.withLock { values[index] = newValue } }
    }
}

/// The "total heap usage: N allocs" of one run of this program under valgrind.
func heapAllocations(valgrind: String, program: String, arguments: [String]) -> Int? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    process.arguments = ["--tool=memcheck", "--leak-check=no", program] + arguments
    let pipe = Pipe()
    process.standardError = pipe
    process.standardOutput = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let line = output.split(separator: "\n").first(where: { $0.contains("total heap usage:") }),
        let range = line.range(of: #"usage: ([\d,]+) allocs"#, options: .regularExpression)
    else { return nil }
    let digits = line[range].filter(\.isNumber)
    return Int(digits)
}

/// A temporary copy of this program without debug information, which valgrind 3.19 cannot read (DWARF 5).
func strippedCopyOfThisProgram() -> String? {
    let program = Bundle.main.executablePath ?? CommandLine.arguments[0]
    let copy = NSTemporaryDirectory() + "MulticastBenchmarks-\(ProcessInfo.processInfo.processIdentifier)"
    let strip = Process()
    strip.executableURL = URL(fileURLWithPath: "/usr/bin/strip")
    strip.arguments = ["--strip-debug", "-o", copy, program]
    guard (try? strip.run()) != nil else { return nil }
    strip.waitUntilExit()
    return strip.terminationStatus == 0 ? copy : nil
}
