import Multicast
import MulticastChecks
import Testing

/// A delegate that may run on any thread: it has a name and no mutable state.
protocol Worker: AnyObject, Sendable {
    var name: String { get }
}

final class NamedWorker: Worker {
    let name: String
    init(_ name: String) { self.name = name }
}

/// Sleeps until the task is cancelled, and throws `CancellationError`; if that has not happened within 30 s,
/// records an issue and returns, so that the test fails instead of hanging.
func sleepUntilCancelled(sourceLocation: SourceLocation = #_sourceLocation) async throws {
    try await Task.sleep(nanoseconds: 30 * 1_000_000_000)
    Issue.record("the task was not cancelled within 30 s", sourceLocation: sourceLocation)
}

/// A task executor that runs each job on a thread of its own, and returns from `enqueue` only once the job has run
/// (to its end or its next suspension): a task that starts a child task waits meanwhile, as if the child had run
/// at once on another core.
final class RunsEachJobAtOnce: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let ran = runOnThreads(1, timeout: 120) { _ in job.runSynchronously(on: executor) }
        precondition(ran, "a job did not run within 120 s")
    }
}

@Suite struct ConcurrentlyTests {
    @Test func everyLiveDelegateRunsOnceAndAllRunAtOnce() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Worker>()
        let workers = ["a", "b", "c", "d"].map(NamedWorker.init)
        defer { extendLifetime(workers) }
        for worker in workers { delegates.add(worker) }
        let removed = NamedWorker("removed")
        delegates.add(removed)
        delegates.remove(removed)
        delegates.add(NamedWorker("deallocated"))  // held weakly: gone at once
        let allStarted = Countdown(count: workers.count)

        await delegates.concurrently.call { worker in
            log.append(worker.name)
            await allStarted.arriveAndWait()  // no body passes this before all four are running
        }

        #expect(log.calls.sorted() == ["a", "b", "c", "d"])
    }

    @Test func firstErrorCancelsTheOthersAndIsRethrownAfterAllFinished() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Worker>()
        let workers = ["a", "b", "failing", "c"].map(NamedWorker.init)
        defer { extendLifetime(workers) }
        for worker in workers { delegates.add(worker) }

        await #expect(throws: Stop(name: "failing")) {
            try await delegates.concurrently.call { worker in
                if worker.name == "failing" { throw Stop(name: "failing") }
                do {
                    try await sleepUntilCancelled()
                } catch {
                    log.append("\(worker.name) cancelled")
                    throw error
                }
            }
        }

        // Every other body had finished, cancelled, when the error came out.
        #expect(log.calls.sorted() == ["a cancelled", "b cancelled", "c cancelled"])
    }

    @Test func cancellingTheCallerCancelsEveryBody() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Worker>()
        let workers = ["a", "b", "c"].map(NamedWorker.init)
        defer { extendLifetime(workers) }
        for worker in workers { delegates.add(worker) }
        let started = Countdown(count: workers.count)

        let caller = Task {
            await delegates.concurrently.call { worker in
                started.arrive()
                let wasCancelled = (try? await sleepUntilCancelled()) == nil
                log.append("\(worker.name) \(wasCancelled ? "cancelled" : "slept 30 s")")
            }
        }
        await started.wait()
        caller.cancel()
        await caller.value

        #expect(log.calls.sorted() == ["a cancelled", "b cancelled", "c cancelled"])
    }

    @Test func delegateIsKeptAliveWhileItsBodyRuns() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Worker>()
        let owner = Guarded<NamedWorker?>(NamedWorker("a"))
        weak let weakWorker = owner.value
        delegates.add(owner.value!)

        let aliveDuringTheBody = Guarded(false)
        await delegates.concurrently.call { worker in
            owner.value = nil  // the multicast holds it weakly; the call holds it until the body ends
            await Task.yield()
            aliveDuringTheBody.value = weakWorker != nil
            log.append(worker.name)
        }

        #expect(aliveDuringTheBody.value)
        #expect(log.calls == ["a"])
        #expect(weakWorker == nil)
        #expect(delegates.isEmpty)
    }

    @Test func delegateAddedDuringTheCallIsNotCalledByIt() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Worker>()
        let workers = ["a", "b"].map(NamedWorker.init)
        defer { extendLifetime(workers) }
        for worker in workers { delegates.add(worker) }
        let latecomer = NamedWorker("latecomer")

        await delegates.concurrently.call { worker in
            delegates.add(latecomer)
            log.append(worker.name)
        }

        #expect(log.calls.sorted() == ["a", "b"])
        #expect(delegates.contains(latecomer))
    }

    /// Every delegate registered when the call starts gets its task, even where the first task runs at once and
    /// removes the others: the call lists the delegates before it starts any task.
    @Test func aTaskThatRemovesTheOthersLeavesNoneWithoutATask() async {
        let delegates = MulticastDelegate<any Worker>()
        let workers = (0..<40).map { NamedWorker("\($0)") }
        defer { extendLifetime(workers) }
        for worker in workers { delegates.add(worker) }

        let answers = await withTaskExecutorPreference(RunsEachJobAtOnce()) {
            await delegates.concurrently.map { worker in
                if worker === workers[0] {
                    for other in workers.dropFirst() { delegates.remove(other) }
                }
                return worker.name
            }
        }

        #expect(answers == workers.map(\.name))
        #expect(delegates.count == 1)
    }

    @Test func concurrentMapAnswersInTheOrderTheDelegatesWereAdded() async {
        let finished = CallLog()
        let delegates = MulticastDelegate<any Worker>()
        let names = ["a", "b", "c", "d"]
        let workers = names.map(NamedWorker.init)
        for worker in workers { delegates.add(worker) }
        let gates = Dictionary(uniqueKeysWithValues: names.map { ($0, Gate()) })
        let successors = Dictionary(uniqueKeysWithValues: zip(names, names.dropFirst()))

        // Each worker finishes only after the one added after it: they finish in reverse order.
        let answers = await delegates.concurrently.map { worker in
            if let successor = successors[worker.name] { await gates[successor]!.wait() }
            finished.append(worker.name)
            gates[worker.name]!.open()
            return worker.name.uppercased()
        }

        withExtendedLifetime(workers) {}
        #expect(finished.calls == ["d", "c", "b", "a"])
        #expect(answers == ["A", "B", "C", "D"])
    }

    @Test func concurrentMapRethrowsTheFirstError() async {
        let delegates = MulticastDelegate<any Worker>()
        let workers = ["a", "failing"].map(NamedWorker.init)
        defer { extendLifetime(workers) }
        for worker in workers { delegates.add(worker) }

        await #expect(throws: Stop(name: "failing")) {
            try await delegates.concurrently.map { worker in
                if worker.name == "failing" { throw Stop(name: "failing") }
                return worker.name
            }
        }
    }

    @Test func noDelegatesMeansNoAnswers() async {
        let delegates = MulticastDelegate<any Worker>()

        let answers = await delegates.concurrently.map { $0.name }
        await delegates.concurrently.call { _ in Issue.record("no delegate, no call") }

        #expect(answers.isEmpty)
    }
}
