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
        .testTarget(name: "MulticastTests", dependencies: ["Multicast"]),
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
