import Dispatch
import Multicast

protocol ClockDelegate: AnyObject, Sendable {
    func tick()
}

enum Services {
    static let clock = MulticastDelegate<any ClockDelegate>()
}

func tickFromFourThreads() {
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
        Services.clock.call { $0.tick() }  // each delegate runs on the thread that calls
    }
}
