import Dispatch

/// Requests to redraw, from any thread, for the one thread that draws: requests made before it draws again
/// make one redraw, and a request made while it draws makes one more.
///
/// ```swift
/// while redraws.next() {        // waits for a request
///     draw()
///     Thread.sleep(forTimeInterval: 0.03)  // at most ~33 frames a second; requests meanwhile wait
/// }
/// ```
// Sendable because `state` is only used under its lock and `DispatchSemaphore` may be signaled from any thread.
package final class RedrawRequests: Sendable {
    private struct State {
        var isRequested = false
        var isStopped = false
    }

    private let state = Locked(State())

    /// Signaled once per request that finds none waiting, and once by `stop()`.
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Creates a request list with nothing requested.
    package init() {}

    /// Asks for a redraw; does nothing if one is asked for already, or after ``stop()``.
    @Sendable package func request() {
        let wakes = state.withLock { state in
            defer { state.isRequested = true }
            return !state.isRequested && !state.isStopped
        }
        if wakes { wakeUp.signal() }
    }

    /// Waits for a request, and takes it.
    ///
    /// - Returns: `true` to draw; `false` once ``stop()`` was called: the drawing thread should end.
    package func next() -> Bool {
        wakeUp.wait()
        let goesOn = state.withLock { state in
            state.isRequested = false
            return !state.isStopped
        }
        if !goesOn { wakeUp.signal() }  // for the next call
        return goesOn
    }

    /// Ends the drawing: ``next()`` returns `false` from now on.
    package func stop() {
        state.withLock { $0.isStopped = true }
        wakeUp.signal()
    }
}
