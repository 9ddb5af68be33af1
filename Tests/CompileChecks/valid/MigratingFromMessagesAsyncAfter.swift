import Multicast

nonisolated protocol LibraryDelegate: AnyObject, Sendable {
    func libraryDidSync(changes: Int) async
}

nonisolated enum Services {
    static let library = MulticastDelegate<any LibraryDelegate>()  // Sendable delegates: a global needs no actor
}

nonisolated final class SearchIndex: LibraryDelegate {
    init() {
        Services.library.add(self)
    }

    func libraryDidSync(changes: Int) async {}
}

func libraryDidSync(changes: Int) async {
    await Services.library.concurrently.call { await $0.libraryDidSync(changes: changes) }  // returns when all ran
}
