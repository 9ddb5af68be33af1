// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Multicast",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Multicast", targets: ["Multicast"])
    ],
    targets: [
        .target(name: "_MulticastShims"),
        .target(name: "Multicast", dependencies: ["_MulticastShims"]),
        // Model-based fuzzing and concurrency stress, shared by the tests and by `MulticastStress`, which runs
        // them under valgrind and the sanitizers without a test runner. Neither is a product.
        .target(name: "MulticastChecks", dependencies: ["Multicast"]),
        .executableTarget(name: "MulticastStress", dependencies: ["MulticastChecks"]),
        .testTarget(name: "MulticastTests", dependencies: ["Multicast", "MulticastChecks"]),
    ],
    swiftLanguageModes: [.v6]
)

// One set of Swift settings for every Swift target.
for target in package.targets where target.name != "_MulticastShims" {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
