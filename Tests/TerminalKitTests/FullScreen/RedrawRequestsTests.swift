import Dispatch
import TerminalKit
import Testing

@Suite struct RedrawRequestsTests {
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
