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

    /// An object that nothing but an add sees. An optimized build may put an object that does not escape on the
    /// stack; a strong delegate and a pinned owner escape, their addresses reaching the runtime as integers, which
    /// the optimizer cannot follow, so that the multicast's count or pin holds memory of the heap.
    final class Temporary: Listener {
        let name = "temporary"
        let log: CallLog
        init(log: CallLog) { self.log = log }
        func hear(_ event: Int) { log.append(name) }
    }

    /// Adds a temporary strong delegate, and a recorder owned by a temporary owner, and lets both go.
    @inline(never)
    static func addTemporaries(to delegates: MulticastDelegate<any Listener>, log: CallLog) {
        delegates.add(Temporary(log: log), retention: .strong)
        delegates.add(Recorder("owned", log: log), ownedBy: Temporary(log: log))
    }

    @Test func temporariesThatTheMulticastHoldsOrPinsOutliveTheFunctionThatMadeThem() {
        let delegates = MulticastDelegate<any Listener>()
        for _ in 0..<100 {
            Self.addTemporaries(to: delegates, log: log)
            _ = (0..<8).map { Recorder("filler \($0)", log: log) }  // reuses whatever the last frame freed
        }
        delegates.call { $0.hear(1) }
        // The strong temporaries are called; the owned recorders' owners died as the function returned.
        #expect(log.calls == Array(repeating: "temporary", count: 100))
        #expect(delegates.count == 100)
        delegates.removeAll()
    }
}
