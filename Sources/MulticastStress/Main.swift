import MulticastChecks

/// Runs the model-based fuzzing and the concurrency stress without a test runner, for valgrind and the
/// sanitizers (`Scripts/check-reliability.sh`). Prints the figures; exits non-zero on any failure.
///
///     swift run MulticastStress [--seeds 1,2,3] [--fuzz-ops 20000] [--threads 4] [--stress-ops 50000]
@main
struct Main {
    static func main() {
        var options = Options()
        var arguments = CommandLine.arguments.dropFirst()
        while let name = arguments.popFirst() {
            guard let value = arguments.popFirst() else { fail("\(name) needs a value") }
            switch name {
            case "--seeds": options.seeds = value.split(separator: ",").compactMap { UInt64($0) }
            case "--fuzz-ops": options.fuzzOperations = Int(value) ?? options.fuzzOperations
            case "--threads": options.threads = Int(value) ?? options.threads
            case "--stress-ops": options.stressOperations = Int(value) ?? options.stressOperations
            case "--timeout": options.timeout = Double(value) ?? options.timeout
            default: fail("unknown option \(name)")
            }
        }
        var failed = false

        var total = FuzzStatistics()
        for seed in options.seeds {
            let report = ModelFuzzer.fuzz(seed: seed, operations: options.fuzzOperations)
            total.merge(report.statistics)
            if let counterexample = report.counterexample {
                print(counterexample)
                failed = true
            }
        }
        print(
            "fuzz: \(total.operations) operations over \(options.seeds.count) seeds \(options.seeds), "
                + "\(total.turnActions) more on delegates' turns, \(total.passes) passes, \(total.visits) calls checked "
                + "(\(total.ownedVisits) of owned delegates), \(total.ownerDeathsDuringPasses) owners died during passes"
        )

        if options.threads > 0 && options.stressOperations > 0 {
            let configuration = StressConfiguration(
                threads: options.threads,
                operationsPerThread: options.stressOperations,
                seed: options.seeds.first ?? 1,
                timeout: options.timeout
            )
            let report = runStress(configuration)
            print(report)
            if !report.passed { failed = true }
        }
        if failed { fail("reliability checks failed") }
    }

    static func fail(_ message: String) -> Never {
        print("MulticastStress: \(message)")
        exitProcess(1)
    }
}

struct Options {
    var seeds: [UInt64] = [1, 2, 3, 4, 5]
    var fuzzOperations = 20_000
    var threads = 4
    var stressOperations = 50_000
    var timeout = 600.0
}
