import Dispatch
import Multicast

nonisolated protocol ClockDelegate: AnyObject, Sendable {
    func tick()
}

nonisolated enum Services {
    static let clock = MulticastDelegate<any ClockDelegate>()
}

nonisolated func tickFromFourThreads() {
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
        Services.clock.call { $0.tick() }  // each delegate runs on the thread that calls
    }
}
