import Multicast
import TerminalKit
import Testing

@testable import Chat

@Suite struct ChatSessionTraceTests {
    /// A session with one screen of each kind open, and its transcript from then on.
    func startedSession() -> (ChatSession, Transcript) {
        let transcript = Transcript()
        let session = ChatSession(console: transcript.console())
        session.start()
        transcript.clear()
        return (session, transcript)
    }

    /// A time as ``ChatSession/duration(_:)`` writes it, at the end of a trace line.
    static var time: Regex<(Substring, Substring?, Substring)> { #/, \d+(\.\d)? (ns|µs|ms)$/# }

    @Test func eachMessageShowsEveryScreenCalledInOrderWithWhereItWasAddedAndItsTime() throws {
        let (session, transcript) = startedSession()

        session.handle("/trace")
        #expect(transcript.lines.count == 1)
        #expect(transcript.lines.first?.hasPrefix("trace on: ") == true)
        session.handle("/open chats")
        transcript.clear()
        session.handle("hi")

        let trace = transcript.lines(containing: "trace:")
        try #require(trace.count == 1 + firstScreens.count + 1)
        #expect(trace[0].hasPrefix("trace: messages call, \(firstScreens.count + 1) screens, "))
        #expect(trace[0].contains(Self.time))
        // The trace comes after what the screens printed: the handler runs once the call has ended.
        #expect(transcript.lines.suffix(trace.count) == trace[...])
        let turns = trace.dropFirst()
        #expect(turns.map { $0.split(separator: ",")[0] } == (firstScreens + ["chats#2"]).map { "trace:   \($0)" })
        #expect(turns.allSatisfy { $0.contains(Self.time) })
        // The session records sites from its start: the screens opened before /trace have theirs too.
        for (turn, name) in zip(turns, firstScreens + ["chats#2"]) {
            #expect(turn.hasPrefix("trace:   \(name), added at ChatSession.swift:"), "\(turn)")
        }
        #expect(turns.allSatisfy { $0.contains(#/, added at ChatSession\.swift:\d+, /#) })
    }

    @Test func traceTurnsOffAgain() {
        let (session, transcript) = startedSession()

        session.handle("/trace")
        session.handle("/trace")
        session.handle("hi")

        #expect(transcript.lines.contains("trace off"))
        #expect(transcript.lines(containing: "trace:").isEmpty)
        #expect(session.messages.diagnostics?.traceHandler == nil)
    }

    @Test func aBurstIsNotTracedAndTheTraceGoesOnAfterIt() {
        let (session, transcript) = startedSession()
        session.handle("/trace")
        transcript.clear()

        session.handle("/burst 100")
        #expect(transcript.lines(containing: "trace:").isEmpty)
        #expect(transcript.lines(containing: "every open screen received exactly 100").count == 1)

        session.handle("hi")
        #expect(transcript.lines(containing: "trace: messages call").count == 1)
    }

    @Test func aTracedMulticastIsReleasedWithItsSession() {
        weak var messages: MulticastDelegate<any MessageDelegate>?
        do {
            let (session, _) = startedSession()
            session.handle("/trace")
            messages = session.messages
            #expect(messages != nil)
        }
        // The trace handler holds the multicast weakly: the multicast, which holds the handler, is not kept.
        #expect(messages == nil)
    }

    @Test func onTheFullScreenViewTheTraceIsInTheStatusLinesDimmed() {
        let view = FullScreenView(placeholder: ScreenSnapshot.placeholder)
        let session = ChatSession(console: view.console())
        session.handle("/trace")
        session.handle("/open chats")
        _ = view.type(.text("hi"))
        _ = view.type(.enter)
        session.handle("hi")

        let frame = view.frame(panes: session.screenStates.snapshot(), size: TerminalSize(rows: 12, columns: 90))

        // A pane 8 lines high; the status: what the chat list printed, then the trace's two lines; the input.
        #expect(frame.text[8].hasPrefix("chats#1 received \"hi\""))
        #expect(frame.text[9].hasPrefix("trace: messages call, 1 screen, "))
        #expect(frame.text[10].hasPrefix("trace:   chats#1, added at ChatSession.swift:"))
        #expect(view.statusLines.map(\.style) == [.green, .dim, .dim])
        #expect(frame.text[11].hasPrefix("> "))
    }

    @Test func durationsReadInTheirUnitWithOneDecimal() {
        #expect(ChatSession.duration(850) == "850 ns")
        #expect(ChatSession.duration(1_000) == "1.0 µs")
        #expect(ChatSession.duration(12_345) == "12.3 µs")
        #expect(ChatSession.duration(4_160_000) == "4.1 ms")
    }
}
