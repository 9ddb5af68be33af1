import Multicast
import MulticastChecks
import Observation
import Testing

/// The pattern for SwiftUI and Observation: an `@Observable` model is the delegate, and views read the model.
@MainActor
@Suite struct ObservationTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aDelegateCallInvalidatesTheObservationOfWhatItChanged() {
        let inbox = MulticastDelegate<any ObservedInboxDelegate>()
        let model = ObservedInbox()
        inbox.add(model)
        let changes = Guarded(0)
        withObservationTracking {
            _ = model.messages  // what a view's body reads
        } onChange: {
            changes.withValue { $0 += 1 }
        }
        #expect(changes.value == 0)
        inbox.call { $0.inboxDidReceive("hi") }
        #expect(changes.value == 1)
        #expect(model.messages == ["hi"])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aModelNoViewOwnsIsReleasedAndNoLongerCalled() {
        let inbox = MulticastDelegate<any ObservedInboxDelegate>()
        weak var released: ObservedInbox?
        do {
            let model = ObservedInbox()
            released = model
            inbox.add(model)
            inbox.call { $0.inboxDidReceive("while shown") }
            #expect(model.messages == ["while shown"])
        }
        #expect(released == nil)
        #expect(inbox.isEmpty)
    }
}

@MainActor
protocol ObservedInboxDelegate: AnyObject {
    func inboxDidReceive(_ text: String)
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
final class ObservedInbox: ObservedInboxDelegate {
    private(set) var messages: [String] = []

    func inboxDidReceive(_ text: String) {
        messages.append(text)
    }
}
