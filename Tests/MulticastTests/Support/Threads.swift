import MulticastChecks
import Testing

/// Runs `body(thread)` on `threads` threads at once and waits for all of them; records an issue (a deadlock)
/// if they have not finished within 120 s, so that the test fails instead of hanging.
func onThreads(
    _ threads: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (Int) -> Void
) {
    let finished = runOnThreads(threads, timeout: 120, body)
    #expect(finished, "threads did not finish in 120 s: a deadlock", sourceLocation: sourceLocation)
}
