// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "MyApp",
    dependencies: [
        .package(url: "https://github.com/multicast-swift/Multicast.git", from: "1.0.0")
    ],
    targets: [
        .executableTarget(
            name: "MyApp",
            dependencies: [.product(name: "Multicast", package: "Multicast")],
            swiftSettings: [.defaultIsolation(MainActor.self)]  // as Xcode 26's new app targets
        )
    ]
)
