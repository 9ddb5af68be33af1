// snippet.hide
import Multicast

// snippet.show
@MainActor
protocol DocumentObserver: AnyObject {
    func documentDidSave(_ document: Document)
}

@MainActor
final class Document {
    static let allObservers = MulticastDelegate<any DocumentObserver>()  // `object: nil`
    let observers = MulticastDelegate<any DocumentObserver>()  // `object: document`

    func save() {
        post { $0.documentDidSave(self) }
    }

    /// One call per event: this document's observers in the order they were added, then every document's.
    private func post(_ event: (any DocumentObserver) -> Void) {
        observers.call(event)
        Self.allObservers.call(event)
    }
}

@MainActor
final class Editor: DocumentObserver {
    init(editing document: Document) {
        document.observers.add(self)  // this document only
    }

    func documentDidSave(_ document: Document) {}
}

@MainActor
final class RecentFiles: DocumentObserver {
    init() {
        Document.allObservers.add(self)  // every document
    }

    func documentDidSave(_ document: Document) {}
}
