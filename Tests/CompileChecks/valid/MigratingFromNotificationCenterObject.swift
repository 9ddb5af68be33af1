// snippet.hide
import Multicast

// snippet.show
protocol DocumentDelegate: AnyObject {
    func documentDidSave(_ document: Document)
}

final class Document {
    let delegates = MulticastDelegate<any DocumentDelegate>()  // one multicast per sender: `object: document`

    func save() {
        delegates.call { $0.documentDidSave(self) }
    }
}

final class RecentFiles: DocumentDelegate {
    func watch(_ document: Document) {
        document.delegates.add(self)
    }

    func documentDidSave(_ document: Document) {}
}
