import Multicast

protocol SyncObserver: AnyObject, Sendable {
    func syncDidFinish()
}

final class SyncLog: SyncObserver {
    func syncDidFinish() {}
}

func subscribeInTheBackground(_ observers: MulticastDelegate<any SyncObserver>.Registration) {
    Task.detached {
        observers.add(SyncLog(), retention: .strong)  // Sendable delegates: the registration crosses tasks
    }
}
