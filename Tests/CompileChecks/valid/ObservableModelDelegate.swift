import Multicast
import Observation

@MainActor
protocol InboxDelegate: AnyObject {
    func inboxDidReceive(_ text: String)
}

@MainActor
enum AppEvents {
    static let inbox = MulticastDelegate<any InboxDelegate>()
}

/// The delegate is the model, a class; the views that read it are structs, and are never delegates.
@MainActor
@Observable
final class InboxModel: InboxDelegate {
    private(set) var messages: [String] = []

    init() {
        AppEvents.inbox.add(self)  // held weakly: gone with the last view that owns the model
    }

    func inboxDidReceive(_ text: String) {
        messages.append(text)  // views that read `messages` are redrawn
    }
}
