import Multicast

protocol Listener: AnyObject {
    func hear(_ event: Int) throws
}

func notify(_ listeners: MulticastDelegate<any Listener>) async throws {
    listeners.call { _ in }  // the synchronous call: no await
    try listeners.call { try $0.hear(1) }
}
