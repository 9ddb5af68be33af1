import Multicast

protocol CloseDelegate: AnyObject {
    func willClose() throws
}

func close(_ delegates: MulticastDelegate<any CloseDelegate>) {
    do {
        try delegates.call { try $0.willClose() }  // the first error stops the pass
    } catch {
        print("not closing:", error)
    }
}
