import Multicast

@MainActor
protocol DocumentDelegate: AnyObject {
    var title: String { get }
    func mayClose() async -> Bool  // may ask the user first
}

@MainActor
func quit(_ documents: MulticastDelegate<any DocumentDelegate>) async -> Bool {
    let titles = documents.map(\.title)  // synchronous questions need no await
    print("closing", titles)
    return await documents.inTurn.allSatisfy { await $0.mayClose() }  // one after another, on the main actor
}
