import Foundation

/// Everything one run measured, and the targets it is held to.
struct Report {
    var settings: Settings
    var calls: [Int: [String: Figure]] = [:]
    var empty: [String: Figure] = [:]
    var registration: [Int: [String: Figure]] = [:]
    var memory: [String: Double] = [:]
    var churn: [String: (calls: Double, changes: Double)] = [:]
    var allocations: [String: [Int: Double]] = [:]

    static func run(_ settings: Settings) -> Report {
        var report = Report(settings: settings)
        for size in settings.callSizes {
            log("call, N = \(size)")
            report.calls[size] = measureCalls(size: size, settings: settings)
        }
        log("call, no delegates")
        report.empty = measureCalls(size: 0, settings: settings)
        for size in settings.registrationSizes {
            log("add + remove, N = \(size)")
            report.registration[size] = measureRegistration(size: size, settings: settings)
        }
        log("memory")
        report.memory = measureMemory(size: 10_000)
        log("call under churn")
        report.churn = measureChurn(settings: settings)
        log("allocations per call (valgrind)")
        report.allocations = countAllocations(settings.allocationContenders, sizes: settings.allocationSizes)
        return report
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("… \(message)\n".utf8))
    }

    func median(_ name: String, _ size: Int) -> Double { calls[size]?[name]?.median ?? .nan }

    /// Each target of the benchmark issue: its figure, the limit, and whether it is met.
    var targets: [(figure: String, value: String, target: String, met: Bool)] {
        var rows: [(String, String, String, Bool)] = []
        let largeSizes = settings.callSizes.filter { $0 >= 10 }
        let weakRatio = largeSizes.map { median(MulticastWeak.name, $0) / median(WeakFloor.name, $0) }.max() ?? .nan
        rows.append(
            (
                "weak call / floor (ii), N >= 10 (worst)", String(format: "%.2fx", weakRatio), "<= 1.15x",
                weakRatio <= 1.15
            ))
        let singleRatio = median(MulticastWeak.name, 1) / median(WeakFloor.name, 1)
        rows.append(("weak call / floor (ii), N = 1", String(format: "%.2fx", singleRatio), "<= 2x", singleRatio <= 2))
        let strongRatio =
            largeSizes.map { median(MulticastStrong.name, $0) / median(StrongFloor.name, $0) }.max() ?? .nan
        rows.append(
            (
                "strong call / floor (i), N >= 10 (worst)", String(format: "%.2fx", strongRatio), "<= 1.3x",
                strongRatio <= 1.3
            ))
        let speedup =
            largeSizes.map { median(NotificationCenterWeak.name, $0) / median(MulticastWeak.name, $0) }.min() ?? .nan
        rows.append(
            (
                "NotificationCenter [weak] / weak call, N >= 10 (worst)", String(format: "%.1fx", speedup), ">= 1.8x",
                speedup >= 1.8
            ))
        let multicastAllocations = [MulticastWeak.name, MulticastStrong.name].compactMap { allocations[$0] }.flatMap(
            \.values)
        if multicastAllocations.isEmpty {
            rows.append(("heap allocations per call, any N", "not counted (no valgrind)", "0", false))
        } else {
            let most = multicastAllocations.max()!
            rows.append(("heap allocations per call, any N", String(format: "%.2f", most), "0", most == 0))
        }
        if let small = registration[settings.registrationSizes.first!]?[MulticastWeak.name]?.median,
            let large = registration[settings.registrationSizes.last!]?[MulticastWeak.name]?.median,
            let center = registration[settings.registrationSizes.last!]?[NotificationCenterWeak.name]?.median
        {
            let growth = large / small
            rows.append(("add + remove per op, 100k / 1k", String(format: "%.2fx", growth), "<= 3x", growth <= 3))
            rows.append(
                (
                    "add + remove per op at 100k, NotificationCenter / Multicast",
                    String(format: "%.1fx", center / large), "> 1x", center > large
                ))
        }
        let bytes = memory[MulticastWeak.name] ?? .nan
        rows.append(("bytes per weak delegate", String(format: "%.0f", bytes), "<= 64", bytes <= 64))
        return rows.map { (figure: $0.0, value: $0.1, target: $0.2, met: $0.3) }
    }

    func printTables() {
        let machine =
            "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)"
        print(
            "# Multicast benchmarks (\(settings.samples) interleaved samples; median, min in parentheses; \(machine))\n"
        )
        print("## call: ns per delegate\n")
        printTable(
            ["contender"] + settings.callSizes.map { "N = \($0)" } + ["no delegates (ns per call)"],
            callContenders.map { type in
                [type.name]
                    + settings.callSizes.map { size in
                        calls[size]?[type.name].map { "\(format($0.median)) (\(format($0.minimum)))" } ?? "-"
                    } + [empty[type.name].map { "\(format($0.median)) (\(format($0.minimum)))" } ?? "-"]
            }
        )
        print("\n## call: ratio to floor (ii), in-place weak loads (median / median)\n")
        printTable(
            ["contender"] + settings.callSizes.map { "N = \($0)" },
            callContenders.map { type in
                [type.name]
                    + settings.callSizes.map {
                        String(format: "%.2fx", median(type.name, $0) / median(WeakFloor.name, $0))
                    }
            }
        )
        print("\n## heap allocations per call (valgrind, difference of two call counts)\n")
        printTable(
            ["contender"] + settings.callSizes.map { "N = \($0)" },
            callContenders.map { type in
                [type.name]
                    + settings.callSizes.map { size in
                        allocations[type.name]?[size].map { String(format: "%.2f", $0) } ?? "-"
                    }
            }
        )
        print("\n## add then remove N distinct delegates: ns per operation\n")
        printTable(
            ["contender"] + settings.registrationSizes.map { "N = \($0)" },
            registeringContenders.map { type in
                [type.name]
                    + settings.registrationSizes.map { size in
                        registration[size]?[type.name].map { "\(format($0.median)) (\(format($0.minimum)))" }
                            ?? "skipped (quadratic)"
                    }
            }
        )
        print("\n## memory: heap bytes per registered delegate (N = 10,000; weak side tables excluded)\n")
        printTable(
            ["contender", "bytes"], callContenders.map { [$0.name, String(format: "%.0f", memory[$0.name] ?? .nan)] })
        print("\n## call on one thread while another adds and removes 100 delegates (N = 100)\n")
        printTable(
            ["contender", "calls per second", "adds + removes per second"],
            churn.keys.sorted().map {
                [$0, String(format: "%.0f", churn[$0]!.calls), String(format: "%.0f", churn[$0]!.changes)]
            }
        )
        print("\n## targets\n")
        printTable(
            ["figure", "measured", "target", "met"],
            targets.map { [$0.figure, $0.value, $0.target, $0.met ? "yes" : "NO"] })
    }

    func json() throws -> Data {
        func figures(_ table: [Int: [String: Figure]]) -> [String: [String: [String: Double]]] {
            Dictionary(
                uniqueKeysWithValues: table.map { size, byName in
                    (String(size), byName.mapValues { ["median": $0.median, "min": $0.minimum] })
                })
        }
        let object: [String: Any] = [
            "samples": settings.samples,
            "callNanosecondsPerDelegate": figures(calls),
            "emptyCallNanoseconds": empty.mapValues { ["median": $0.median, "min": $0.minimum] },
            "addRemoveNanosecondsPerOperation": figures(registration),
            "bytesPerDelegate": memory,
            "churn": churn.mapValues { ["callsPerSecond": $0.calls, "changesPerSecond": $0.changes] },
            "allocationsPerCall": allocations.mapValues {
                Dictionary(uniqueKeysWithValues: $0.map { (String($0.key), $0.value) })
            },
            "targets": targets.map { ["figure": $0.figure, "measured": $0.value, "target": $0.target, "met": $0.met] },
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }
}

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
    private let lock = NSLock()
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
