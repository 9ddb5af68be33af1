import Dispatch
import Testing

@testable import Chat

@Suite struct ChatsScreenTests {
    @Test func keepsAnUnreadBadgePerConversation() {
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

    @Test func snapshotListsConversationsMostRecentFirstWithBadgeAndLatestMessage() {
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

    @Test func silentMessagesAreTakenInWithoutPrinting() {
        let transcript = Transcript()
        let screen = ChatsScreen(name: "chats#1", console: transcript.console())

        screen.didReceive(message("quiet", isSilent: true))

        #expect(screen.receivedCount == 1)
        #expect(screen.unreadCount == 1)
        #expect(transcript.lines.isEmpty)
    }

    @Test func countsEveryMessageSentFromManyThreadsAtOnce() {
        let screen = ChatsScreen(name: "chats#1", console: Transcript().console())

        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for number in 0..<500 {
                screen.didReceive(message("\(thread).\(number)", in: "thread \(thread)", isSilent: true))
            }
        }

        #expect(screen.receivedCount == 2000)
        #expect(screen.badges == ["thread 0": 500, "thread 1": 500, "thread 2": 500, "thread 3": 500])
    }
}
