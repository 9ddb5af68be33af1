/// The build this run measures: a debug build runs only the call scenarios.
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
    /// Rounds of each churn contender, how long each round runs, and at which sizes.
    var churnRounds: Int
    var churnNanoseconds: UInt64
    var churnSizes: [Int]
    /// How long the churn runs before memory is sampled.
    var churnMemoryNanoseconds: UInt64
    /// Whose heap allocations per call to count with valgrind (about a second a count), at which sizes.
    var allocationContenders: [any Contender.Type]
    var allocationSizes: [Int]

    static let full = Settings(
        samples: 15,
        sampleNanoseconds: 8_000_000,
        callSizes: [1, 10, 100, 1000],
        registrationSizes: [1000, 10_000, 100_000],
        churnRounds: 5,
        churnNanoseconds: 250_000_000,
        churnSizes: [1000, 10_000],
        churnMemoryNanoseconds: 10_000_000_000,
        allocationContenders: callContenders,
        allocationSizes: [1, 10, 100, 1000]
    )

    static let quick = Settings(
        samples: 5,
        sampleNanoseconds: 2_000_000,
        callSizes: [1, 10, 100, 1000],
        registrationSizes: [1000, 10_000, 100_000],
        churnRounds: 1,
        churnNanoseconds: 100_000_000,
        churnSizes: [1000, 10_000],
        churnMemoryNanoseconds: 500_000_000,
        allocationContenders: [MulticastWeak.self, MulticastStrong.self],
        allocationSizes: [1, 1000]
    )
}
