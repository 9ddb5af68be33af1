import Multicast
import MulticastChecks

/// What the test delegates report to: the order in which they were called.
final class CallLog: @unchecked Sendable {
    private var names: [String] = []
    private let lock = CheckLock()

    func append(_ name: String) {
        lock.withLock { names.append(name) }
    }

    var calls: [String] {
        lock.withLock { names }
    }

    func clear() {
        lock.withLock { names.removeAll() }
    }
}

protocol Listener: AnyObject {
    var name: String { get }
    func hear(_ event: Int)
}

/// A delegate that logs each event, and may run an action when it hears one.
final class Recorder: Listener {
    let name: String
    let log: CallLog
    var onHear: ((Recorder) -> Void)?
    var heard: [Int] = []

    init(_ name: String, log: CallLog, onHear: ((Recorder) -> Void)? = nil) {
        self.name = name
        self.log = log
        self.onHear = onHear
    }

    func hear(_ event: Int) {
        heard.append(event)
        log.append(name)
        onHear?(self)
    }
}

/// Two instances compare equal, so tests can show that equality does not merge delegates.
final class EqualRecorder: Listener, Equatable {
    let name: String
    let log: CallLog
    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
    }
    func hear(_ event: Int) { log.append(name) }
    static func == (lhs: EqualRecorder, rhs: EqualRecorder) -> Bool { true }
}

/// Runs `body` and reports whether `object` was deallocated when it returned.
func isDeallocated<T: AnyObject>(_ make: () -> T, after body: (T) -> Void) -> Bool {
    weak var weakObject: T?
    do {
        let object = make()
        weakObject = object
        body(object)
    }
    return weakObject == nil
}

/// Adds a new recorder that only `delegates` keeps alive, held strongly, and returns a weak handle to it.
func addStrongRecorder(_ name: String, to delegates: MulticastDelegate<any Listener>, log: CallLog) -> () -> Recorder? {
    let recorder = Recorder(name, log: log)
    delegates.add(recorder, retention: .strong)
    return { [weak recorder] in recorder }
}

/// A delegate that may be shared across threads; counts what it hears under its own lock.
final class SharedListener: Listener, @unchecked Sendable {
    let name: String
    private let lock = CheckLock()
    private var events: [Int] = []
    var onHear: (@Sendable (SharedListener, Int) -> Void)?

    init(_ name: String, onHear: (@Sendable (SharedListener, Int) -> Void)? = nil) {
        self.name = name
        self.onHear = onHear
    }

    func hear(_ event: Int) {
        lock.withLock { events.append(event) }
        onHear?(self, event)
    }

    var heard: [Int] { lock.withLock { events } }
}

/// The error a test's body throws to stop a call, named after the delegate that threw it.
struct Stop: Error, Equatable {
    let name: String
}
