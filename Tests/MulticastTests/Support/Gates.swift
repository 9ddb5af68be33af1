import MulticastChecks

/// A one-way gate for async tests: tasks that `wait()` are suspended until someone calls `open()`.
///
/// Orders events across tasks without timing: a test opens the gate once the state it wants to test is
/// in place.
final class Gate: @unchecked Sendable {
    private let lock = CheckLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock {
                if isOpen { return true }
                waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiting = lock.withLock {
            isOpen = true
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }
}

/// A gate that opens once `count` tasks have arrived at it.
///
/// `arriveAndWait()` proves that `count` tasks were running at once: none of them gets past it before the
/// last one arrives.
final class Countdown: @unchecked Sendable {
    private let lock = CheckLock()
    private var remaining: Int
    private let gate = Gate()

    init(count: Int) {
        remaining = count
    }

    func arrive() {
        let isLast = lock.withLock {
            remaining -= 1
            return remaining == 0
        }
        if isLast { gate.open() }
    }

    func wait() async {
        await gate.wait()
    }

    func arriveAndWait() async {
        arrive()
        await wait()
    }

    /// Whether `count` tasks have arrived.
    var hasOpened: Bool {
        lock.withLock { remaining <= 0 }
    }

    /// Arrives, then waits for about `seconds` at most until `count` tasks have arrived; returns whether they
    /// did, so that a test whose tasks never meet fails instead of hanging.
    func arriveAndWait(within seconds: Double) async -> Bool {
        arrive()
        return await eventually(within: seconds) { self.hasOpened }
    }
}

/// Whether `condition` holds within about `seconds`, polled every millisecond: a test that waits for something
/// that never happens fails, instead of hanging.
///
/// The default is long because what a test waits for may need a thread of the shared task pool, which other
/// tests running in parallel can keep busy for as long as they run (the stress test: a minute and more under
/// the thread sanitizer).
func eventually(within seconds: Double = 300, _ condition: @Sendable () -> Bool) async -> Bool {
    for _ in 0..<Int(seconds * 1000) {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)  // at least a millisecond; the limit is a lower bound
    }
    return condition()
}
