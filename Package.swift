// swift-tools-version: 6.3
import PackageDescription

let package = Package(
    name: "Multicast",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Multicast", targets: ["Multicast"])
    ],
    targets: [
        .target(name: "_MulticastShims"),
        // The registry, storage and lock behind a multicast: a module of its own, so that an unoptimized build of
        // Multicast inlines its hot paths (see "Writing the call path" in CONTRIBUTING.md).
        // Both library modules mark their unsafe code (SE-0458): each use of an unsafe construct says `unsafe`.
        .target(
            name: "_MulticastCore", dependencies: ["_MulticastShims"], swiftSettings: [.strictMemorySafety()]),
        .target(name: "Multicast", dependencies: ["_MulticastCore"], swiftSettings: [.strictMemorySafety()]),
        .testTarget(name: "MulticastTests", dependencies: ["Multicast", "_MulticastCore", "MulticastChecks"]),
        // Model-based fuzzing and concurrency stress, shared by the tests and by `MulticastStress`, which runs
        // them under valgrind and the sanitizers without a test runner. Neither is a product.
        .target(name: "MulticastChecks", dependencies: ["Multicast"]),
        .executableTarget(name: "MulticastStress", dependencies: ["MulticastChecks"]),
        // The demo, `swift run ChatDemo`: an executable, not a product, that puts the chat on the terminal.
        // `Chat` is what the demo is about: the session, its screens and commands, and the one multicast they
        // listen on. `TerminalKit` draws and reads the terminal; it does not import Multicast, and knows
        // nothing of the chat. Neither is a product; each has its tests.
        .target(name: "TerminalKit"),
        .target(name: "Chat", dependencies: ["Multicast", "TerminalKit"]),
        .executableTarget(name: "ChatDemo", dependencies: ["Chat", "TerminalKit"]),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit"]),
        .testTarget(name: "ChatTests", dependencies: ["Chat", "Multicast", "TerminalKit"]),
        // `swift run -c release MulticastBenchmarks`: an executable, not a product, with a C helper for heap
        // figures.
        .target(name: "_BenchmarkSupport"),
        .executableTarget(
            name: "MulticastBenchmarks", dependencies: ["Multicast", "MulticastChecks", "_BenchmarkSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// With `MULTICAST_WARNINGS_AS_ERRORS=1` in the environment, as `.ci/run` sets it for every build, any warning
// fails the build. Without it, warnings stay warnings, so a newer compiler's new warnings never break a build.
let warningSettings: [SwiftSetting] =
    Context.environment["MULTICAST_WARNINGS_AS_ERRORS"] == nil ? [] : [.treatAllWarnings(as: .error)]

// With `MULTICAST_INTERNAL_CHECKS=1` in the environment, as `.ci/run` sets it for its test runs, the library
// checks its registry's invariant after every change, and stops at the first that does not hold. A user's
// build never has it: it would cost every add and remove O(n).
let checkSettings: [SwiftSetting] =
    Context.environment["MULTICAST_INTERNAL_CHECKS"] == nil ? [] : [.define("MULTICAST_INTERNAL_CHECKS")]

// One set of Swift settings for every target. SwiftPM gives Swift settings to the Swift compiler alone, so the
// C targets (`_MulticastShims`, `_BenchmarkSupport`) build as if they had none: no target needs leaving out.
for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ] + warningSettings + checkSettings
}
