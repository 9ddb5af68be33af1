import Dispatch
import Testing

@testable import Chat

@Suite struct BannerScreenTests {
    @Test func showsTheLatestMessageOnOneLine() {
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

    @Test func snapshotShowsTheLatestMessage() {
        let banner = BannerScreen(name: "banner#1", console: Transcript().console())
        #expect(banner.snapshot == ScreenSnapshot(name: "banner#1", received: 0, content: .banner(nil)))

        banner.didReceive(message("hi"))
        banner.didReceive(message("hello", in: "alice"))

        #expect(banner.snapshot == ScreenSnapshot(name: "banner#1", received: 2, content: .banner("[alice] hello")))
    }

    @Test func silentMessagesAreTakenInWithoutPrinting() {
        let transcript = Transcript()
        let screen = BannerScreen(name: "banner#1", console: transcript.console())

        screen.didReceive(message("quiet", isSilent: true))

        #expect(screen.receivedCount == 1)
        #expect(screen.unreadCount == 0)
        #expect(transcript.lines.isEmpty)
    }

    @Test func countsEveryMessageSentFromManyThreadsAtOnce() {
        let screen = BannerScreen(name: "banner#1", console: Transcript().console())

        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for number in 0..<500 {
                screen.didReceive(message("\(thread).\(number)", in: "thread \(thread)", isSilent: true))
            }
        }

        #expect(screen.receivedCount == 2000)
        #expect(screen.text?.hasPrefix("[thread ") == true)
    }
}
