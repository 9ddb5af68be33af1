import Foundation
import Multicast

/// `swift run -c release MulticastBenchmarks [--quick] [--json FILE] [--markdown FILE] [--require-zero-allocations]`
///
/// Measures Multicast against what users would otherwise pick, in one run, and reports ratios. Built without
/// `-c release`, as `swift run MulticastBenchmarks`, it measures what a debug build costs, which is how a user's
/// app and tests build Multicast while they are developed: the call table, beside NotificationCenter and the
/// floors built the same way, the pairs, bulk registration and replace, and the allocations per call.
/// `--count-allocations NAME N CALLS` runs one contender's `call` alone, for valgrind to count its heap
/// allocations or callgrind its instructions; `--add-remove NAME N` runs one contender's add-then-remove alone,
/// `--pairs NAME OTHERS COUNT` adds and removes one delegate `COUNT` times among `OTHERS` and prints ns per pair,
/// `--bulk NAME COUNT` adds `COUNT` fresh delegates to a new contender and removes them in the bulk scenario's
/// shuffled order and prints ns per operation, `--replace N COUNT` replaces one owner's registration `COUNT`
/// times among `N` owned registrations and prints ns per replace, `--ranges FILE...` prints the range of each
/// target and headline ratio over several runs' `--json` files, `--churn NAME N SECONDS` one contender under
/// churn, for profiling, and `--figure NAME COUNT` one of the figures that Scripts/check-figures.sh counts.
/// `--diagnostics traced`, `watched` or `elsewhere`, with any of them, measures Multicast with diagnostics on.
/// `--markdown FILE` writes the tables that a run, `--bulk-only` or `--ranges` prints to FILE as well.
@main
struct MulticastBenchmarks {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        if let flag = arguments.firstIndex(of: "--diagnostics") {
            guard flag + 1 < arguments.endIndex else { usage("--diagnostics needs traced, watched or elsewhere") }
            switchOnDiagnostics(arguments[flag + 1])
            arguments.removeSubrange(flag...(flag + 1))
        }
        var markdownPath: String?
        if let flag = arguments.firstIndex(of: "--markdown") {
            guard flag + 1 < arguments.endIndex else { usage("--markdown needs a file name") }
            markdownPath = arguments[flag + 1]
            markdownCopy = ""
            arguments.removeSubrange(flag...(flag + 1))
        }
        defer { if let markdownPath { writeMarkdown(to: markdownPath) } }
        if arguments.first == "--count-allocations" {
            return runAlone(Array(arguments.dropFirst()))
        }
        if arguments.first == "--add-remove" {
            return addRemoveAlone(Array(arguments.dropFirst()))
        }
        if arguments.first == "--ranges" {
            return try printRanges(Array(arguments.dropFirst()))
        }
        if arguments.first == "--pairs" {
            return pairsAlone(Array(arguments.dropFirst()))
        }
        if arguments.first == "--bulk" {
            return bulkAlone(Array(arguments.dropFirst()))
        }
        if arguments.first == "--replace" {
            return replaceAlone(Array(arguments.dropFirst()))
        }
        if arguments.first == "--churn" {
            return churnAlone(Array(arguments.dropFirst()))
        }
        if arguments.first == "--figure" {
            return figureAlone(Array(arguments.dropFirst()))
        }
        var settings = Settings.full
        var jsonPath: String?
        var requireZeroAllocations = false
        var bulkOnly = false
        while let argument = arguments.popFirst() {
            switch argument {
            case "--quick": settings = .quick
            case "--bulk-only": bulkOnly = true
            case "--require-zero-allocations": requireZeroAllocations = true
            case "--json":
                guard let path = arguments.popFirst() else { usage("--json needs a file name") }
                jsonPath = path
            case "--help", "-h": usage(nil)
            default: usage("unknown argument \(argument)")
            }
        }
        if bulkOnly { return bulkScenarioAlone(settings) }
        let report = Report.run(settings)
        report.printTables()
        fflush(nil)  // the tables are out even if writing the JSON fails
        if let jsonPath {
            try report.json().write(to: URL(fileURLWithPath: jsonPath))
            print("\nWrote \(jsonPath)")
        }
        if requireZeroAllocations {
            let counted = report.multicastAllocations
            check(!counted.isEmpty, "allocations were not counted: install valgrind")
            check(counted.allSatisfy { $0 == 0 }, "Multicast's call allocated on the heap: \(report.allocations)")
            print("\nAllocation guard: Multicast's call made no heap allocation, at every N counted (\(build) build).")
        }
    }

    static func usage(_ problem: String?) -> Never {
        if let problem { FileHandle.standardError.write(Data("MulticastBenchmarks: \(problem)\n".utf8)) }
        print(
            """
            usage: MulticastBenchmarks [--quick] [--json FILE] [--require-zero-allocations]
                   MulticastBenchmarks [--quick] --bulk-only
                   (any of these) --diagnostics traced|watched|elsewhere
                   (a run, --bulk-only or --ranges) --markdown FILE: the tables it prints, written to FILE too
                   MulticastBenchmarks --count-allocations CONTENDER N CALLS
                   MulticastBenchmarks --add-remove CONTENDER N
                   MulticastBenchmarks --pairs CONTENDER OTHERS COUNT
                   MulticastBenchmarks --bulk CONTENDER COUNT
                   MulticastBenchmarks --replace N COUNT
                   MulticastBenchmarks --ranges JSON...
                   MulticastBenchmarks --churn CONTENDER N SECONDS
                   MulticastBenchmarks --figure FIGURE COUNT | --list
            contenders: \(callContenders.map { "\"\($0.name)\"" }.joined(separator: ", "))
            """
        )
        exit(problem == nil ? 0 : 2)
    }

    /// A multicast whose diagnostics are on, so that every other multicast's call and add take their
    /// diagnosed paths and find no settings: `--diagnostics elsewhere`.
    nonisolated(unsafe) static var diagnosedElsewhere: MulticastDelegate<any Receiver>?

    /// Turns diagnostics on for the run: `traced` traces every multicast's call into a handler that does
    /// nothing, which is what tracing itself costs; `watched` records sites for every multicast
    /// (`recordingSites`), whose calls note which delegates they reached; `elsewhere` turns them on for one
    /// multicast that is never called, which is what the others pay while some multicast is traced.
    static func switchOnDiagnostics(_ mode: String) {
        switch mode {
        case "traced":
            MulticastDiagnostics.processWide = MulticastDiagnostics(traceHandler: { _ in })
        case "watched":
            MulticastDiagnostics.processWide = .recordingSites
        case "elsewhere":
            diagnosedElsewhere = MulticastDelegate<any Receiver>(label: "elsewhere")
            diagnosedElsewhere?.diagnostics = MulticastDiagnostics(traceHandler: { _ in })
        default: usage("--diagnostics takes traced, watched or elsewhere")
        }
        print("diagnostics: \(mode)")
    }

    /// Adds then removes `N` delegates with one registering contender.
    static func addRemoveAlone(_ arguments: [String]) {
        guard arguments.count == 2, let size = Int(arguments[1]),
            let type = registeringContenders.first(where: { $0.name == arguments[0] })
        else { usage("--add-remove takes a registering contender's name and N") }
        let receivers = (0..<size).map { _ in Counter() }
        let contender = makeEmpty(type)
        for receiver in receivers { contender.register(receiver) }
        for receiver in receivers.reversed() { contender.unregister(receiver) }
        contender.callAll(1)
        check(receivers.allSatisfy { $0.total == 0 }, "a removed delegate was called")
    }

    /// Adds and removes one delegate `COUNT` times while `OTHERS` stay registered, with one pairing contender.
    static func pairsAlone(_ arguments: [String]) {
        guard arguments.count == 3, let others = Int(arguments[1]), let count = Int(arguments[2]),
            let type = pairingContenders.first(where: { $0.name == arguments[0] })
        else { usage("--pairs takes a pairing contender's name, OTHERS and COUNT") }
        let receivers = (0..<others).map { _ in Counter() }
        defer { extendLifetime(receivers) }  // a weak contender does not keep them
        let contender = type.init(receivers)
        let newcomer = Counter()
        let start = now()
        for _ in 0..<count {
            contender.register(newcomer)
            contender.unregister(newcomer)
        }
        let elapsed = now() - start
        contender.callAll(1)
        check(newcomer.total == 0, "a removed delegate was called")
        print(String(format: "%.0f ns per pair", Double(elapsed) / Double(count)))
    }

    /// Adds `COUNT` fresh delegates to a new contender of the bulk scenario and removes them in its shuffled
    /// order, once.
    static func bulkAlone(_ arguments: [String]) {
        guard arguments.count == 2, let size = Int(arguments[1]), size > 0,
            let type = bulkContenders.first(where: { $0.name == arguments[0] })
        else { usage("--bulk takes a bulk contender's name and COUNT") }
        let nanoseconds = bulkRegistration(type, size: size, removalOrder: bulkRemovalOrder(size))
        print(String(format: "%.0f ns per operation", nanoseconds))
    }

    /// Runs the bulk and replace scenarios alone, with the run's samples and sizes, and prints their tables and
    /// targets: `--bulk-only`, with `--quick` or not.
    static func bulkScenarioAlone(_ settings: Settings) {
        var report = Report(settings: settings)
        report.measureRegistrationInBulk()
        emit("# Multicast benchmarks, bulk registration and replace alone, \(build) build")
        report.printRegistrationInBulk()
        emit("")
        printTable(
            ["figure", "measured", "target", "met"],
            (report.bulkTargets + report.replaceTargets).map {
                [$0.figure, $0.value, $0.target, $0.met.map { $0 ? "yes" : "NO" } ?? "not measured"]
            })
    }

    /// Replaces one owner's registration `COUNT` times among `N` owned registrations, as the replace scenario
    /// does, once.
    static func replaceAlone(_ arguments: [String]) {
        guard arguments.count == 2, let size = Int(arguments[0]), size >= 16, let count = Int(arguments[1]) else {
            usage("--replace takes N (at least 16) and COUNT")
        }
        let replacing = Replacing(size: size)
        let start = now()
        replacing.replace(count)
        let elapsed = now() - start
        replacing.checkEachCalledOnce()
        print(String(format: "%.0f ns per replace", Double(elapsed) / Double(Swift.max(count, 1))))
    }

    /// Runs one churn contender (a name from the churn table) with `N` delegates for `SECONDS`.
    static func churnAlone(_ arguments: [String]) {
        guard arguments.count == 3, let size = Int(arguments[1]), let seconds = Double(arguments[2]),
            let contender = churnContenders.first(where: { $0.name == arguments[0] })
        else { usage("--churn takes a churn contender's name, N and SECONDS") }
        let receivers = (0..<size).map { _ in Counter() }
        let churned = contender.make(receivers)
        let (elapsed, pairs) = churn(
            churned, receivers, churning: contender.churning, nanoseconds: UInt64(seconds * 1e9))
        let calls = receivers.reduce(0) { $0 + $1.total }
        print(
            String(
                format: "%.3g M delegate calls/s, %.0f k pairs/s", Double(calls) / elapsed / 1e6,
                Double(pairs) / elapsed / 1e3))
    }
}
