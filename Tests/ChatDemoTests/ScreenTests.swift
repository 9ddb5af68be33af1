import Dispatch
import Testing

@testable import ChatDemoKit

@Suite struct ScreenTests {
    @Test func chatsKeepsAnUnreadBadgePerConversation() {
        let transcript = Transcript()
        let chats = ChatsScreen(name: "chats#1", console: transcript.console())

        chats.didReceive(message("hi"))
        chats.didReceive(message("hello", in: "alice"))
        chats.didReceive(message("again"))

        #expect(chats.badges == ["general": 2, "alice": 1])
        #expect(chats.unreadCount == 3)
        #expect(chats.receivedCount == 3)
        #expect(
            transcript.lines == [
                "chats#1 received \"hi\" · badge general: 1",
                "chats#1 received \"hello\" · badge alice: 1",
                "chats#1 received \"again\" · badge general: 2",
            ])
    }

    @Test func conversationShowsEachMessageAsABubbleAndHasNothingUnread() {
        let transcript = Transcript()
        let conversation = ConversationScreen(name: "conversation#1", console: transcript.console())

        conversation.didReceive(message("hi"))
        conversation.didReceive(message("hello", in: "alice"))

        #expect(conversation.bubbles == [message("hi"), message("hello", in: "alice")])
        #expect(conversation.unreadCount == 0)
        #expect(conversation.receivedCount == 2)
        #expect(transcript.lines.last == "conversation#1 received \"hello\" · bubble 2 in alice")
    }

    @Test func bannerShowsTheLatestMessageOnOneLine() {
        let transcript = Transcript()
        let banner = BannerScreen(name: "banner#1", console: transcript.console())
        #expect(banner.text == nil)

        banner.didReceive(message("hi"))
        banner.didReceive(message("hello", in: "alice"))

        #expect(banner.text == "[alice] hello")
        #expect(banner.unreadCount == 0)
        #expect(banner.receivedCount == 2)
        #expect(transcript.lines.last == "banner#1 received \"hello\" · shows [alice] hello")
    }

    @Test func silentMessagesAreTakenInWithoutPrinting() {
        let transcript = Transcript()
        let console = transcript.console()
        let screens: [any MessageDelegate] = [
            ChatsScreen(name: "chats#1", console: console),
            ConversationScreen(name: "conversation#1", console: console),
            BannerScreen(name: "banner#1", console: console),
        ]

        for screen in screens {
            screen.didReceive(message("quiet", isSilent: true))
        }

        #expect(screens.map(\.receivedCount) == [1, 1, 1])
        #expect(screens.map(\.unreadCount) == [1, 0, 0])
        #expect(transcript.lines.isEmpty)
    }

    @Test func chatsSnapshotListsConversationsMostRecentFirstWithBadgeAndLatestMessage() {
        let chats = ChatsScreen(name: "chats#1", console: Transcript().console())
        chats.didReceive(message("hi"))
        chats.didReceive(message("hello", in: "alice"))
        chats.didReceive(message("again"))
        chats.didReceive(message("hey", in: "bob"))

        #expect(
            chats.snapshot
                == ScreenSnapshot(
                    name: "chats#1", received: 4,
                    content: .chats([
                        .init(name: "bob", unread: 1, latest: "hey"),
                        .init(name: "general", unread: 2, latest: "again"),
                        .init(name: "alice", unread: 1, latest: "hello"),
                    ])))
    }

    @Test func conversationSnapshotShowsTheConversationOfTheLatestMessage() {
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

    @Test func conversationSnapshotHoldsTheLastBubblesOnly() {
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

    @Test func bannerSnapshotShowsTheLatestMessage() {
        let banner = BannerScreen(name: "banner#1", console: Transcript().console())
        #expect(banner.snapshot == ScreenSnapshot(name: "banner#1", received: 0, content: .banner(nil)))

        banner.didReceive(message("hi"))
        banner.didReceive(message("hello", in: "alice"))

        #expect(banner.snapshot == ScreenSnapshot(name: "banner#1", received: 2, content: .banner("[alice] hello")))
    }

    @Test(arguments: ScreenKind.allCases)
    func screenSaysItLeftWhenReleased(kind: ScreenKind) {
        let transcript = Transcript()
        do {
            let screen = kind.makeScreen(number: 3, console: transcript.console())
            #expect(screen.name == "\(kind.rawValue)#3")
            #expect(transcript.lines.isEmpty)
        }
        #expect(transcript.lines == ["\(kind.rawValue)#3 left (released; no remove call)"])
    }

    @Test func screensCountEveryMessageSentFromManyThreadsAtOnce() {
        let transcript = Transcript()
        let console = transcript.console()
        let chats = ChatsScreen(name: "chats#1", console: console)
        let conversation = ConversationScreen(name: "conversation#1", console: console)
        let banner = BannerScreen(name: "banner#1", console: console)

        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for number in 0..<500 {
                let message = message("\(thread).\(number)", in: "thread \(thread)", isSilent: true)
                chats.didReceive(message)
                conversation.didReceive(message)
                banner.didReceive(message)
            }
        }

        #expect(chats.receivedCount == 2000)
        #expect(chats.badges == ["thread 0": 500, "thread 1": 500, "thread 2": 500, "thread 3": 500])
        #expect(Set(conversation.bubbles).count == 2000)
        #expect(banner.receivedCount == 2000)
    }
}
