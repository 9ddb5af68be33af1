import Multicast

@MainActor
protocol Screen: AnyObject {
    var title: String { get }
    var isReady: Bool { get }
}

@MainActor
func titles(of screens: MulticastDelegate<any Screen>) async -> ([String], Bool) {
    // Key paths and synchronous closures pick the synchronous members in async code: no await.
    (screens.map(\.title), screens.allSatisfy(\.isReady) && screens.contains { $0.title.isEmpty })
}
