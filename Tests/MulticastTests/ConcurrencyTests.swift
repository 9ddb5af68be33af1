import Foundation
import Multicast
import MulticastChecks
import Testing

@Suite struct ConcurrencyTests {
    @Test func aCallThatStartsAfterRemoveReturnedNeverCallsTheDelegate() {
        let delegates = MulticastDelegate<any Listener & Sendable>()
        let clock = LogicalClock()
        for round in 0..<200 {
            let victim = SharedListener("victim \(round)")
            let bystander = SharedListener("bystander")
            delegates.add(bystander)
            delegates.add(victim, retention: round % 2 == 0 ? .weak : .strong)
            let removedAt = Guarded(Int.max)
            onThreads(4) { thread in
                if thread == 0 {
                    delegates.remove(victim)
                    removedAt.value = clock.tick()
                } else {
                    for _ in 0..<20 {
                        let start = clock.tick()
                        delegates.call { $0.hear(start) }
                    }
                }
            }
            let latePasses = victim.heard.filter { $0 > removedAt.value }
            #expect(latePasses.isEmpty, "round \(round): passes that started after remove returned called it")
            #expect(bystander.heard.count == 60)
            delegates.removeAll()
        }
    }

    /// A change holds the lock while it works; a call, an iteration, `count` and `isEmpty` on another thread go
    /// on meanwhile, unless the change rewrites the list of delegates that they read.
    @Test func callsDoNotWaitForTheLockThatAnotherThreadHolds() {
        let delegates = MulticastDelegate<any Listener & Sendable>()
        let listeners = [SharedListener("weak"), SharedListener("strong")]
        delegates.add(listeners[0])
        delegates.add(listeners[1], retention: .strong)
        withExtendedLifetime(listeners) {
            let counted = Guarded((count: 0, isEmpty: true))
            let finished = delegates.whileHoldingTheLock {
                runOnThreads(1, timeout: 10) { _ in
                    delegates.call { $0.hear(1) }
                    for delegate in delegates { delegate.hear(2) }
                    counted.value = (delegates.count, delegates.isEmpty)
                }
            }
            #expect(finished, "a pass waited for the lock that another thread held")
            #expect(listeners.map(\.heard) == [[1, 2], [1, 2]])
            #expect(counted.value == (2, false))
        }
    }

    @Test func delegateRemovedOnAnotherThreadBeforeItsTurnIsNotCalled() {
        let delegates = MulticastDelegate<any Listener & Sendable>()
        let removed = DispatchSemaphore(value: 0)
        let victim = SharedListener("victim")
        let first = SharedListener("first") { _, _ in
            // Another thread removes the victim while this pass waits, before the victim's turn.
            removed.wait()
        }
        delegates.add(first)
        delegates.add(victim)
        Thread.detachNewThread {
            delegates.remove(victim)
            removed.signal()
        }
        delegates.call { $0.hear(1) }
        #expect(first.heard == [1])
        #expect(victim.heard.isEmpty)
    }

    /// Four threads, 5,000 mixed operations each, on shared multicasts and a shared pool of delegates.
    @Test func mixedOperationsFromFourThreadsKeepTheInvariants() {
        let multicasts = (0..<2).map { _ in MulticastDelegate<any Listener & Sendable>() }
        let pool = (0..<16).map { SharedListener("pool \($0)") }
        onThreads(4) { thread in
            var random = SplitMix64(seed: UInt64(thread + 1))
            var own: [SharedListener] = []  // weak delegates this thread keeps alive, then drops
            for step in 0..<5000 {
                let delegates = multicasts[Int(random.next() % 2)]
                let index = Int(random.next() % 16)
                let delegate = pool[index]
                switch random.next() % 10 {
                case 0, 1:
                    // A delegate has one retention in a multicast: a third of the pool is held strongly.
                    delegates.add(delegate, retention: index % 3 == 0 ? .strong : .weak)
                case 2: delegates.remove(delegate)
                case 3:
                    let temporary = SharedListener("temporary") { listener, _ in
                        delegates.remove(listener)
                    }
                    own.append(temporary)
                    delegates.add(temporary)
                case 4: own.removeAll()  // deallocates weak delegates while others call them
                case 5: if step % 500 == 0 { delegates.removeAll() }
                case 6: _ = delegates.count + (delegates.isEmpty ? 0 : 1)
                case 7: _ = delegates.map(\.name)
                default:
                    delegates.call { $0.hear(thread) }
                }
            }
        }
        for delegates in multicasts {
            // Each registered delegate is there once, counted once, and can be removed once.
            let registered = delegates.map { ObjectIdentifier($0) }
            #expect(Set(registered).count == registered.count)
            #expect(registered.count == delegates.count)
            for delegate in pool where registered.contains(ObjectIdentifier(delegate)) {
                #expect(delegates.remove(delegate))
                #expect(!delegates.remove(delegate))
            }
            #expect(pool.allSatisfy { !delegates.contains($0) })
        }
    }

    @Test func eachDelegateHearsEveryPassExactlyOnce() {
        let delegates = MulticastDelegate<any Listener & Sendable>()
        let listeners = (0..<8).map { SharedListener("\($0)") }
        for listener in listeners { delegates.add(listener) }
        let churn = (0..<8).map { SharedListener("churn \($0)") }
        onThreads(4) { thread in
            for step in 0..<2500 {
                if thread == 3 {
                    let listener = churn[step % 8]
                    if step % 2 == 0 { delegates.add(listener) } else { delegates.remove(listener) }
                } else {
                    delegates.call { $0.hear(thread * 10_000 + step) }
                }
            }
        }
        for listener in listeners {
            #expect(listener.heard.count == 3 * 2500)
            #expect(Set(listener.heard).count == 3 * 2500)
        }
    }
}
