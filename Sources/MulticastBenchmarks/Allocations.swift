// The heap allocations of one call, counted by valgrind: the runs under valgrind, and the one contender each
// runs alone.

import Foundation
import MulticastChecks

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
    let counted = Guarded([Int?](repeating: nil, count: runs.count))  // each run's count, as the runs finish
    DispatchQueue.concurrentPerform(iterations: runs.count) { run in
        let (name, size, calls) = runs[run]
        let count = heapAllocations(
            valgrind: valgrind,
            program: program,
            arguments: ["--count-allocations", name, String(size), String(calls)]
        )
        counted.withValue { $0[run] = count }
    }
    let counts = counted.value
    var results: [String: [Int: Double]] = [:]
    for run in stride(from: 0, to: runs.count, by: 2) {
        if let low = counts[run], let high = counts[run + 1] {
            results[runs[run].0, default: [:]][runs[run].1] = Double(high - low) / Double(more - fewer)
        }
    }
    return results
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

extension MulticastBenchmarks {
    /// Makes one contender with `N` delegates, then calls it `CALLS` times: with valgrind's heap summary for
    /// two values of CALLS, the difference is the allocations of the calls alone.
    static func runAlone(_ arguments: [String]) {
        guard arguments.count == 3, let size = Int(arguments[1]), let calls = Int(arguments[2]),
            let type = callContenders.first(where: { $0.name == arguments[0] })
        else { usage("--count-allocations takes a contender name, N and CALLS") }
        let receivers = (0..<size).map { _ in Counter() }
        let contender = type.init(receivers)
        callRepeatedly(contender, 1, calls)
        check(receivers.allSatisfy { $0.total == calls }, "a delegate missed calls")
    }
}
