// swift-tools-version: 6.3
import PackageDescription

let package = Package(
    name: "MyApp",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v9), .visionOS(.v1)],  // Multicast's minimums
    dependencies: [
        // No release is tagged yet: follow the main branch until one is, then require `from:` that version.
        .package(url: "https://github.com/multicast-swift/Multicast.git", branch: "main")
    ],
    targets: [
        .executableTarget(name: "MyApp", dependencies: [.product(name: "Multicast", package: "Multicast")])
    ]
)
