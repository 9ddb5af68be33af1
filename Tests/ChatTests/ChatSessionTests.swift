import Multicast
import TerminalKit
import Testing

@testable import Chat

@Suite struct ChatSessionTests {
    /// A session with one screen of each kind open, and its transcript from then on.
    func startedSession() -> (ChatSession, Transcript) {
        let transcript = Transcript()
        let session = ChatSession(console: transcript.console())
        session.start()
        #expect(
            transcript.lines(containing: "subscribed") == [
                "chats#1 has been subscribed",
                "conversation#1 has been subscribed",
                "banner#1 has been subscribed",
            ])
        transcript.clear()
        return (session, transcript)
    }

    @Test func everyOpenScreenReceivesAMessageInTheOrderTheyOpened() {
        let (session, transcript) = startedSession()

        session.handle("hi")

        #expect(
            transcript.lines == [
                "chats#1 received \"hi\" · badge general: 1",
                "conversation#1 received \"hi\" · bubble 1 in general",
                "banner#1 received \"hi\" · shows [general] hi",
            ])
    }

    @Test func closingAScreenReleasesItAndTheMulticastStopsCallingIt() {
        let (session, transcript) = startedSession()

        session.handle("/close banner")
        #expect(transcript.lines == ["banner#1 left (released; no remove call)"])
        #expect(session.messages.count == 2)

        session.handle("bye")
        #expect(transcript.lines(containing: "received").count == 2)
        #expect(transcript.lines(containing: "banner#1 received").isEmpty)
    }

    @Test func twoScreensOfOneKindBothReceive() {
        let (session, transcript) = startedSession()

        session.handle("/open chats")
        session.handle("hi")

        #expect(session.subscribedNames == ["chats#1", "conversation#1", "banner#1", "chats#2"])
        #expect(transcript.lines(containing: "received \"hi\" · badge general: 1").count == 2)
    }

    @Test func closeWithoutANumberClosesTheMostRecentlyOpenedOfTheKind() {
        let (session, transcript) = startedSession()
        session.handle("/open chats")
        session.handle("/open chats")

        session.handle("/close chats")
        session.handle("/close chats#1")

        #expect(
            transcript.lines(containing: "left") == [
                "chats#3 left (released; no remove call)",
                "chats#1 left (released; no remove call)",
            ])
        #expect(session.subscribedNames == ["conversation#1", "banner#1", "chats#2"])
    }

    @Test func reopenedScreenIsANewInstanceAtTheEnd() {
        let (session, _) = startedSession()

        session.handle("/close chats")
        session.handle("/open chats")

        #expect(session.subscribedNames == ["conversation#1", "banner#1", "chats#2"])
    }

    @Test func closingAScreenThatIsNotOpenSaysWhichAre() {
        let (session, transcript) = startedSession()
        session.handle("/close banner")
        transcript.clear()

        #expect(session.handle("/close banner"))
        #expect(session.handle("/close chats#2"))

        #expect(
            transcript.lines == [
                "error: no banner screen is open; open: chats#1, conversation#1",
                "error: no chats#2 screen is open; open: chats#1, conversation#1",
            ])
    }

    @Test func screensListsTheCountAndTheNamesInOrder() {
        let (session, transcript) = startedSession()

        session.handle("/screens")
        session.handle("/close chats")
        session.handle("/close conversation")
        session.handle("/screens")
        session.handle("/close banner")
        session.handle("/screens")

        #expect(
            transcript.lines(containing: "subscribed") == [
                "3 screens subscribed: chats#1, conversation#1, banner#1",
                "1 screen subscribed: banner#1",
                "no screen is subscribed",
            ])
    }

    @Test func unreadAddsUpTheAnswerOfEveryScreen() {
        let (session, transcript) = startedSession()
        session.handle("hi")
        session.handle("/open chats")
        session.handle("@alice hello")
        session.handle("@bob hey")
        transcript.clear()

        session.handle("/unread")

        #expect(transcript.lines == ["unread: chats#1 3, conversation#1 0, banner#1 0, chats#2 2; total 5"])
    }

    @Test func burstDeliversExactlyNToEveryOpenScreen() {
        let (session, transcript) = startedSession()
        session.handle("hi")
        session.handle("/open chats")
        transcript.clear()

        session.handle("/burst 1000")

        #expect(
            transcript.lines == [
                "burst: 4 threads sent 1000 messages at once; every open screen received exactly 1000: "
                    + "chats#1, conversation#1, banner#1, chats#2"
            ])
        #expect(session.messages.map(\.receivedCount) == [1001, 1001, 1001, 1000])
    }

    @Test func screenStatesFollowTheMulticastAsScreensOpenAndClose() {
        let (session, _) = startedSession()
        let states = session.screenStates
        session.handle("hi")
        #expect(states.snapshot().map(\.name) == ["chats#1", "conversation#1", "banner#1"])
        #expect(states.snapshot().map(\.received) == [1, 1, 1])

        session.handle("/close conversation")
        session.handle("/open chats")

        #expect(states.snapshot().map(\.name) == ["chats#1", "banner#1", "chats#2"])
        #expect(states.snapshot().map(\.received) == [1, 1, 0])
    }

    @Test func afterDeliveryIsCalledOncePerMessageFromEveryThread() {
        let deliveries = Locked(0)
        let session = ChatSession(console: Transcript().console()) { deliveries.withLock { $0 += 1 } }
        session.start()

        session.handle("hi")
        #expect(deliveries.withLock { $0 } == 1)
        session.handle("/burst 1000")
        #expect(deliveries.withLock { $0 } == 1001)
        session.handle("/screens")
        #expect(deliveries.withLock { $0 } == 1001)
    }

    @Test func pacedBurstStillDeliversExactlyN() {
        let transcript = Transcript()
        let session = ChatSession(console: transcript.console(), burstSeconds: 0.05)
        session.start()
        transcript.clear()

        session.handle("/burst 40")

        #expect(transcript.lines(containing: "every open screen received exactly 40").count == 1)
        #expect(session.messages.map(\.receivedCount) == [40, 40, 40])
    }

    @Test func burstWithNoScreenOpenSaysSo() {
        let transcript = Transcript()
        let session = ChatSession(console: transcript.console())

        session.handle("/burst 10")

        #expect(transcript.lines == ["burst: 4 threads sent 10 messages at once; no screen is open to receive them"])
    }

    @Test func sendingWithNoScreenOpenSaysSo() {
        let transcript = Transcript()
        let session = ChatSession(console: transcript.console())

        session.handle("hi")

        #expect(transcript.lines == ["no screen is open to receive it; /open chats, for one"])
    }

    @Test(arguments: ["/bogus", "/open inbox", "/burst", "/burst -1", "/burst 1000000", "/close", "@alice"])
    func badInputPrintsOneErrorLineAndTheSessionGoesOn(line: String) {
        let (session, transcript) = startedSession()

        #expect(session.handle(line))
        #expect(transcript.lines.count == 1)
        #expect(transcript.lines.first?.hasPrefix("error: ") == true)

        session.handle("still here")
        #expect(transcript.lines(containing: "received \"still here\"").count == 3)
    }

    @Test func helpListsEveryCommand() {
        let (session, transcript) = startedSession()

        session.handle("/help")

        let help = transcript.lines.joined(separator: "\n")
        for command in ["/open", "/close", "/screens", "/unread", "/burst", "/help", "/quit"] {
            #expect(help.contains("\n  \(command) "), "help does not describe \(command)")
        }
        #expect(help.contains("/close chats#1"))
    }

    @Test func quitEndsThePlayAndClosesEveryScreen() {
        let (session, transcript) = startedSession()

        session.play(["hi", "/quit", "never sent"], echo: true)

        #expect(transcript.lines(containing: "never sent").isEmpty)
        #expect(
            Array(transcript.lines.suffix(5)) == [
                "> /quit",
                "bye",
                "chats#1 left (released; no remove call)",
                "conversation#1 left (released; no remove call)",
                "banner#1 left (released; no remove call)",
            ])
        #expect(session.messages.isEmpty)
    }

    @Test func theEndOfTheInputEndsTheSession() {
        let (session, transcript) = startedSession()

        session.play(["hi"], echo: false)

        #expect(transcript.lines(containing: "> ").isEmpty)
        #expect(transcript.lines(containing: "received \"hi\"").count == 3)
        #expect(transcript.lines.contains("bye"))
        #expect(session.messages.isEmpty)
    }

    @Test func demoScriptPlaysOpenSendCloseSendReopenBurstAndUnread() {
        let (session, transcript) = startedSession()

        session.play(Launch.demoScript, echo: true)

        #expect(transcript.lines(containing: "error").isEmpty)
        #expect(transcript.lines(containing: "received \"hello, screens\"").count == 3)
        #expect(transcript.lines(containing: "received \"no banner for this one\"").count == 3)
        #expect(transcript.lines(containing: "banner#1 received \"no banner for this one\"").isEmpty)
        #expect(transcript.lines(containing: "banner#2 received \"the banner is back\"").count == 1)
        #expect(transcript.lines(containing: "every open screen received exactly 1000").count == 1)
        #expect(
            transcript.lines.contains("unread: chats#1 1004, conversation#1 0, chats#2 1003, banner#2 0; total 2007"))
        #expect(transcript.lines.contains("3 screens subscribed: conversation#1, chats#2, banner#2"))
        #expect(transcript.lines.contains("bye"))
    }

    @Test func onTheFullScreenViewWhatTheSessionSaysIsTheStatusUntilTheNextLine() {
        let view = FullScreenView(placeholder: ScreenSnapshot.placeholder)
        let session = ChatSession(console: view.console())
        session.start()
        #expect(view.statusLines.last == StatusLine("banner#1 has been subscribed", style: .orange))

        for character in "/bogus" {
            #expect(view.type(.text(String(character))) == .editing)
        }
        #expect(view.inputText == "/bogus")
        guard case .submitted(let line) = view.type(.enter) else {
            Issue.record("Return did not submit the line")
            return
        }
        #expect(view.statusLines.isEmpty)
        session.handle(line)

        #expect(view.inputText == "")
        #expect(view.statusLines.count == 1)
        #expect(view.statusLines.first?.style == .red)
        #expect(view.statusLines.first?.text.hasPrefix("error: unknown command /bogus") == true)
    }

    @Test func onTheFullScreenViewEveryOpenScreenIsAPane() {
        let view = FullScreenView(placeholder: ScreenSnapshot.placeholder)
        let session = ChatSession(console: view.console())
        session.start()
        _ = view.type(.text("hi"))
        _ = view.type(.enter)
        session.handle("hi")
        _ = view.type(.text("next"))

        let frame = view.frame(panes: session.screenStates.snapshot(), size: TerminalSize(rows: 12, columns: 90))

        // Panes 8 lines high, the three "received" status lines, the input line.
        #expect(frame.text[0].hasPrefix("┌ chats#1 "))
        #expect(frame.text[2].contains("│   hi "))  // the chat list's latest message
        #expect(frame.text[5].contains("│ › hi "))  // the conversation's bubble, above the counters
        #expect(frame.text[1].contains("│  [general] hi "))  // the banner
        #expect(frame.text[8].hasPrefix("chats#1 received \"hi\""))
        #expect(frame.text[11].hasPrefix("> next "))
    }
}
