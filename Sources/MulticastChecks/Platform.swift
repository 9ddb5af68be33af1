// Threads, a mutex and a clock for the checks' own bookkeeping, apart from the lock under test. Written on
// pthreads rather than Foundation so that the `MulticastStress` executable runs clean under valgrind.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("MulticastChecks needs pthreads; it is a test tool for Linux and Apple platforms.")
#endif

/// A mutex for bookkeeping.
package final class CheckLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let error = pthread_mutex_init(mutex, nil)
        precondition(error == 0, "pthread_mutex_init failed with error \(error)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value guarded by a ``CheckLock``.
package final class Guarded<Value>: @unchecked Sendable {
    private let lock = CheckLock()
    private var stored: Value

    package init(_ value: Value) {
        stored = value
    }

    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    package func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&stored) }
    }
}

/// Seconds on a monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    // Darwin's <time.h> makes each clock an enumerator of `clockid_t` and `CLOCK_MONOTONIC` a macro that
    // stands for `_CLOCK_MONOTONIC`, a macro the Swift importer does not import; glibc's and musl's make
    // `CLOCK_MONOTONIC` a number, which it does.
    #if canImport(Darwin)
    clock_gettime(_CLOCK_MONOTONIC, &now)
    #else
    clock_gettime(CLOCK_MONOTONIC, &now)
    #endif
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Runs `body(thread)` on `count` new threads at once. Returns true when all of them finished within
/// `timeout` seconds; false otherwise, leaving the stragglers running (a deadlock, which the caller reports
/// as a failure instead of hanging).
package func runOnThreads(
    _ count: Int,
    timeout: Double,
    _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let running = Guarded(count)
    for thread in 0..<count {
        let work: @Sendable () -> Void = {
            body(thread)
            running.withValue { $0 -= 1 }
        }
        let context = Unmanaged.passRetained(ThreadWork(work)).toOpaque()
        // What differs between the headers. The handle: Darwin's <pthread/pthread.h> makes `pthread_t` a pointer
        // to an opaque struct, filled through a `pthread_t _Nullable *` (`UnsafeMutablePointer<pthread_t?>` in
        // Swift) and passed to `pthread_detach` nonnull, which the implicitly unwrapped handle does; glibc's
        // <pthread.h> makes it an `unsigned long`, filled through a plain `pthread_t *`. The start routine:
        // glibc's `void *(*)(void *)` takes an `UnsafeMutableRawPointer?`; Darwin's takes an
        // `UnsafeMutableRawPointer?` or, where the header picks its older declaration under `assume_nonnull`
        // (`_PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT`), an `UnsafeMutableRawPointer`. So the routine is a
        // closure, whose parameter takes the type of the import, and `context as UnsafeMutableRawPointer?`
        // reads either.
        #if canImport(Darwin)
        var handle: pthread_t! = nil
        #else
        var handle = pthread_t()
        #endif
        let error = pthread_create(
            &handle, nil,
            { context in
                Unmanaged<ThreadWork>.fromOpaque((context as UnsafeMutableRawPointer?)!).takeRetainedValue().run()
                return nil
            }, context)
        precondition(error == 0, "pthread_create failed with error \(error)")
        pthread_detach(handle)
    }
    let deadline = monotonicSeconds() + timeout
    while running.value > 0 {
        if monotonicSeconds() > deadline { return false }
        usleep(2_000)
    }
    return true
}

private final class ThreadWork {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Reads an environment variable.
package func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}

/// Ends the process with `status`.
package func exitProcess(_ status: Int32) -> Never {
    exit(status)
}
