import Multicast
import Testing

/// What Getting Started and Testing teach about weak delegates in an optimized build: a weak delegate is
/// called only while something else holds it, and an optimized build may release a local right after its last
/// use, such as the `add` that registered it, where a debug build keeps it to the end of its scope. The first
/// test ends the delegate's only reference with a scope, so that every build releases it at the same point;
/// the second keeps the delegate alive with `withExtendedLifetime`, the fix, which holds in every build.
@Suite struct OptimizedLifetimeTests {
    let log = CallLog()

    @Test func aWeakDelegateWhoseLastReferenceHasEndedIsNotCalled() {
        let delegates = MulticastDelegate<any Listener>()
        do {
            let screen = Recorder("screen", log: log)
            delegates.add(screen)  // the last use of `screen`, as when nothing uses it after adding it
        }
        delegates.call { $0.hear(1) }
        #expect(log.calls.isEmpty)
        #expect(delegates.isEmpty)
    }

    @Test func aWeakDelegateKeptWithWithExtendedLifetimeIsCalled() {
        let delegates = MulticastDelegate<any Listener>()
        let screen = Recorder("screen", log: log)
        delegates.add(screen)  // nothing uses `screen` after this line but `withExtendedLifetime`
        withExtendedLifetime(screen) {
            delegates.call { $0.hear(1) }
        }
        #expect(log.calls == ["screen"])
    }
}
