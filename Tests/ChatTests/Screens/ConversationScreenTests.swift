import Dispatch
import Testing

@testable import Chat

@Suite struct ConversationScreenTests {
    @Test func showsEachMessageAsABubbleAndHasNothingUnread() {
        let transcript = Transcript()
        let conversation = ConversationScreen(name: "conversation#1", console: transcript.console())

        conversation.didReceive(message("hi"))
        conversation.didReceive(message("hello", in: "alice"))

        #expect(conversation.bubbles == [message("hi"), message("hello", in: "alice")])
        #expect(conversation.unreadCount == 0)
        #expect(conversation.receivedCount == 2)
        #expect(transcript.lines.last == "conversation#1 received \"hello\" · bubble 2 in alice")
    }

    @Test func snapshotShowsTheConversationOfTheLatestMessage() {
        let conversation = ConversationScreen(name: "conversation#1", console: Transcript().console())
        #expect(conversation.snapshot.content == .conversation(nil, bubbles: []))

        conversation.didReceive(message("hi"))
        conversation.didReceive(message("hello", in: "alice"))
        conversation.didReceive(message("again"))

        #expect(
            conversation.snapshot
                == ScreenSnapshot(
                    name: "conversation#1", received: 3, content: .conversation("general", bubbles: ["hi", "again"])))
    }

    @Test func snapshotHoldsTheLastBubblesOnly() {
        let conversation = ConversationScreen(name: "conversation#1", console: Transcript().console())
        for number in 1...(ScreenSnapshot.bubbleLimit + 10) {
            conversation.didReceive(message("\(number)", isSilent: true))
        }

        guard case .conversation(_, let bubbles) = conversation.snapshot.content else {
            Issue.record("not a conversation's snapshot")
            return
        }
        #expect(bubbles.count == ScreenSnapshot.bubbleLimit)
        #expect(bubbles.first == "11")
        #expect(bubbles.last == "\(ScreenSnapshot.bubbleLimit + 10)")
    }

    @Test func silentMessagesAreTakenInWithoutPrinting() {
        let transcript = Transcript()
        let screen = ConversationScreen(name: "conversation#1", console: transcript.console())

        screen.didReceive(message("quiet", isSilent: true))

        #expect(screen.receivedCount == 1)
        #expect(screen.unreadCount == 0)
        #expect(transcript.lines.isEmpty)
    }

    @Test func countsEveryMessageSentFromManyThreadsAtOnce() {
        let screen = ConversationScreen(name: "conversation#1", console: Transcript().console())

        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for number in 0..<500 {
                screen.didReceive(message("\(thread).\(number)", in: "thread \(thread)", isSilent: true))
            }
        }

        #expect(screen.receivedCount == 2000)
        #expect(Set(screen.bubbles).count == 2000)
    }
}
