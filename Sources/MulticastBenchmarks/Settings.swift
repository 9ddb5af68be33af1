/// The build this run measures: a debug build runs only the call, pair, bulk and replace scenarios.
#if DEBUG
let build = "debug"
#else
let build = "release"
#endif

/// How long a run may take, and how carefully it measures.
struct Settings {
    var samples: Int
    var sampleNanoseconds: UInt64
    var callSizes: [Int]
    var registrationSizes: [Int]
    /// How many delegates stay registered while one is added and removed.
    var pairOthers: Int
    /// How many fresh delegates the bulk scenario adds to a new multicast and removes, in each build.
    var bulkSizes: [Int]
    /// Among how many owned registrations one owner's is replaced, in each build.
    var replaceSizes: [Int]
    /// Rounds of each churn contender, how long each round runs, and at which sizes.
    var churnRounds: Int
    var churnNanoseconds: UInt64
    var churnSizes: [Int]
    /// How long the churn runs before memory is sampled.
    var churnMemoryNanoseconds: UInt64
    /// Whose heap allocations per call to count with valgrind (about a second a count), at which sizes.
    var allocationContenders: [any Contender.Type]
    var allocationSizes: [Int]

    /// A run without `--quick`.
    static let full = Settings(
        samples: 15,
        sampleNanoseconds: 8_000_000,
        callSizes: [1, 10, 100, 1000],
        registrationSizes: [1000, 10_000, 100_000],
        pairOthers: 1000,
        bulkSizes: [1000, 100_000],
        replaceSizes: [1000, 100_000],
        churnRounds: 5,
        churnNanoseconds: 250_000_000,
        churnSizes: [1000, 10_000],
        churnMemoryNanoseconds: 10_000_000_000,
        allocationContenders: callContenders,
        allocationSizes: [1, 10, 100, 1000]
    )

    /// The full run's sizes, so that a quick run prints the same tables, with fewer and shorter samples, and
    /// only Multicast's allocations counted, at the smallest and largest N.
    static let quick: Settings = {
        var quick = full
        quick.samples = 5
        quick.sampleNanoseconds = 2_000_000
        quick.churnRounds = 1
        quick.churnNanoseconds = 100_000_000
        quick.churnMemoryNanoseconds = 500_000_000
        quick.allocationContenders = [MulticastWeak.self, MulticastStrong.self, MulticastOwned.self]
        quick.allocationSizes = [1, 1000]
        return quick
    }()
}
