import Dispatch
import Testing

@testable import ChatDemoKit

@Suite struct FullScreenViewTests {
    @Test func whatTheSessionSaysBecomesTheStatusUntilTheNextLineIsSubmitted() {
        let view = FullScreenView()
        let session = ChatSession(console: view.console())
        session.start()
        #expect(view.statusLines.last == StatusLine("banner#1 has been subscribed", tone: .subscribed))

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
        #expect(view.statusLines.first?.tone == .error)
        #expect(view.statusLines.first?.text.hasPrefix("error: unknown command /bogus") == true)
    }

    @Test func theFrameShowsTheScreensTheStatusAndTheInput() {
        let view = FullScreenView()
        let session = ChatSession(console: view.console())
        session.start()
        _ = view.type(.text("hi"))
        _ = view.type(.enter)
        session.handle("hi")
        _ = view.type(.text("next"))

        let frame = view.frame(screens: session.screenStates.snapshot(), size: TerminalSize(rows: 12, columns: 90))

        // Panes 8 lines high, the three "received" status lines, the input line.
        #expect(frame.text[0].hasPrefix("┌ chats#1 "))
        #expect(frame.text[2].contains("│   hi "))  // the chat list's latest message
        #expect(frame.text[5].contains("│ › hi "))  // the conversation's bubble, above the counters
        #expect(frame.text[1].contains("│  [general] hi "))  // the banner
        #expect(frame.text[8].hasPrefix("chats#1 received \"hi\""))
        #expect(frame.text[11].hasPrefix("> next "))
    }

    @Test(.timeLimit(.minutes(1)))
    func requestsBeforeADrawMakeOneDrawAndALaterRequestAnother() {
        let redraws = RedrawRequests()
        let draws = Locked(0)
        let stopped = DispatchSemaphore(value: 0)
        let drawn = DispatchSemaphore(value: 0)

        redraws.request()
        redraws.request()
        redraws.request()
        DispatchQueue.global().async {
            while redraws.next() {
                draws.withLock { $0 += 1 }
                drawn.signal()
            }
            stopped.signal()
        }
        drawn.wait()
        redraws.request()  // after the first draw: one more
        drawn.wait()
        redraws.stop()
        stopped.wait()

        #expect(draws.withLock { $0 } == 2)
        #expect(!redraws.next())  // stopped stays stopped
        #expect(!redraws.next())
    }
}
