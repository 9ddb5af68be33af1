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
        #expect(transcript.lines(containing: "subscribed") == firstScreens.map { "\($0) has been subscribed" })
        transcript.clear()
        return (session, transcript)
    }

    @Test func everyOpenScreenReceivesAMessageInTheOrderTheyOpened() {
        let (session, transcript) = startedSession()

        session.handle("hi")

        // What each kind of screen prints after "received" is in that screen's tests.
        #expect(transcript.lines.map { String($0.prefix { $0 != " " }) } == firstScreens)
        #expect(transcript.lines.allSatisfy { $0.contains(" received \"hi\"") })
    }

    @Test func closingAScreenReleasesItAndTheMulticastStopsCallingIt() {
        let (session, transcript) = startedSession()

        session.handle("/close banner")
        #expect(transcript.lines == ["banner#1 left (released; no remove call)"])
        #expect(session.messages.count == firstScreens.count - 1)

        session.handle("bye")
        #expect(transcript.lines(containing: "received").count == firstScreens.count - 1)
        #expect(transcript.lines(containing: "banner#1 received").isEmpty)
    }

    @Test func twoScreensOfOneKindBothReceive() {
        let (session, transcript) = startedSession()

        session.handle("/open chats")
        session.handle("hi")

        #expect(session.subscribedNames == firstScreens + ["chats#2"])
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
        #expect(session.subscribedNames == firstScreens.filter { $0 != "chats#1" } + ["chats#2"])
    }

    @Test func reopenedScreenIsANewInstanceAtTheEnd() {
        let (session, _) = startedSession()

        session.handle("/close chats")
        session.handle("/open chats")

        #expect(session.subscribedNames == firstScreens.filter { $0 != "chats#1" } + ["chats#2"])
    }

    @Test func closingAScreenThatIsNotOpenSaysWhichAre() {
        let (session, transcript) = startedSession()
        session.handle("/close banner")
        transcript.clear()

        #expect(session.handle("/close banner"))
        #expect(session.handle("/close chats#2"))

        let open = firstScreens.filter { $0 != "banner#1" }.joined(separator: ", ")
        #expect(
            transcript.lines == [
                "error: no banner screen is open; open: \(open)",
                "error: no chats#2 screen is open; open: \(open)",
            ])
    }

    @Test func screensListsTheCountAndTheNamesInOrder() {
        let (session, transcript) = startedSession()

        let kinds = ScreenKind.allCases.map(\.rawValue)

        session.handle("/screens")
        for kind in kinds.dropLast() {
            session.handle("/close \(kind)")
        }
        session.handle("/screens")
        session.handle("/close \(kinds[kinds.count - 1])")
        session.handle("/screens")

        #expect(
            transcript.lines(containing: "subscribed") == [
                "\(firstScreens.count) screens subscribed: \(firstScreens.joined(separator: ", "))",
                "1 screen subscribed: \(firstScreens[firstScreens.count - 1])",
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

        // A chat list counts what it has not shown as read; the other screens show every message at once.
        let others = firstScreens.filter { $0 != "chats#1" }.map { "\($0) 0, " }.joined()
        #expect(transcript.lines == ["unread: chats#1 3, \(others)chats#2 2; total 5"])
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
                    + (firstScreens + ["chats#2"]).joined(separator: ", ")
            ])
        #expect(session.messages.map(\.receivedCount) == firstScreens.map { _ in 1001 } + [1000])
    }

    @Test func screenStatesFollowTheMulticastAsScreensOpenAndClose() {
        let (session, _) = startedSession()
        let states = session.screenStates
        session.handle("hi")
        #expect(states.snapshot().map(\.name) == firstScreens)
        #expect(states.snapshot().map(\.received) == firstScreens.map { _ in 1 })

        session.handle("/close conversation")
        session.handle("/open chats")

        let stillOpen = firstScreens.filter { $0 != "conversation#1" }
        #expect(states.snapshot().map(\.name) == stillOpen + ["chats#2"])
        #expect(states.snapshot().map(\.received) == stillOpen.map { _ in 1 } + [0])
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
        #expect(session.messages.map(\.receivedCount) == firstScreens.map { _ in 40 })
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
        #expect(transcript.lines(containing: "received \"still here\"").count == firstScreens.count)
    }

    @Test func helpListsEveryCommand() {
        let (session, transcript) = startedSession()

        session.handle("/help")

        let help = transcript.lines.joined(separator: "\n")
        for command in ["/open", "/close", "/screens", "/unread", "/burst", "/trace", "/help", "/quit"] {
            #expect(help.contains("\n  \(command) "), "help does not describe \(command)")
        }
        #expect(help.contains("/close chats#1"))
    }

    @Test func quitEndsThePlayAndClosesEveryScreen() {
        let (session, transcript) = startedSession()

        session.play(["hi", "/quit", "never sent"], echo: true)

        #expect(transcript.lines(containing: "never sent").isEmpty)
        #expect(
            Array(transcript.lines.suffix(2 + firstScreens.count))
                == ["> /quit", "bye"] + firstScreens.map { "\($0) left (released; no remove call)" })
        #expect(session.messages.isEmpty)
    }

    @Test func theEndOfTheInputEndsTheSession() {
        let (session, transcript) = startedSession()

        session.play(["hi"], echo: false)

        #expect(transcript.lines(containing: "> ").isEmpty)
        #expect(transcript.lines(containing: "received \"hi\"").count == firstScreens.count)
        #expect(transcript.lines.contains("bye"))
        #expect(session.messages.isEmpty)
    }

    @Test func demoScriptPlaysOpenSendCloseSendReopenBurstAndUnread() {
        let (session, transcript) = startedSession()

        session.play(Launch.demoScript, echo: true)

        // The script opens a second chat list, closes the banner, and opens a new one.
        let beforeBanner = firstScreens.filter { $0 != "banner#1" } + ["chats#2"]
        #expect(transcript.lines(containing: "error").isEmpty)
        #expect(transcript.lines(containing: "received \"hello, screens\"").count == firstScreens.count)
        #expect(transcript.lines(containing: "received \"no banner for this one\"").count == beforeBanner.count)
        #expect(transcript.lines(containing: "banner#1 received \"no banner for this one\"").isEmpty)
        #expect(transcript.lines(containing: "banner#2 received \"the banner is back\"").count == 1)
        #expect(transcript.lines(containing: "every open screen received exactly 1000").count == 1)
        // A chat list counts what it has not shown as read; the other screens show every message at once.
        let unread = (beforeBanner + ["banner#2"]).map { name in
            "\(name) \(name == "chats#1" ? 1004 : name == "chats#2" ? 1003 : 0)"
        }
        #expect(transcript.lines.contains("unread: \(unread.joined(separator: ", ")); total 2007"))
        let atTheEnd = beforeBanner.filter { $0 != "chats#1" } + ["banner#2"]
        #expect(transcript.lines.contains("\(atTheEnd.count) screens subscribed: \(atTheEnd.joined(separator: ", "))"))
        #expect(transcript.lines.contains("bye"))
    }

    @Test func onTheFullScreenViewWhatTheSessionSaysIsTheStatusUntilTheNextLine() {
        let view = FullScreenView(placeholder: ScreenSnapshot.placeholder)
        let session = ChatSession(console: view.console())
        session.start()
        #expect(
            view.statusLines.last
                == StatusLine("\(firstScreens[firstScreens.count - 1]) has been subscribed", style: .orange))

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
        for kind in ["chats", "conversation", "banner"] {
            session.handle("/open \(kind)")
        }
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
