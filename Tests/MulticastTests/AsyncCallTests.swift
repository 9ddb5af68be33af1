import Multicast
import MulticastChecks
import Testing

/// Delegates whose async requirement runs on the main actor.
@MainActor
protocol DocumentViewer: AnyObject {
    func reload() async
}

@MainActor
final class ViewerScreen: DocumentViewer {
    var reloads = 0

    func reload() async {
        MainActor.assertIsolated()
        await Task.yield()
        MainActor.assertIsolated()
        reloads += 1
    }
}

/// A protocol that knows nothing of actors, adopted by a main-actor class through an isolated conformance.
protocol Refreshable: AnyObject {
    func refresh()
}

@MainActor
final class RefreshingScreen {
    var refreshes = 0
}

extension RefreshingScreen: @MainActor Refreshable {
    func refresh() {
        MainActor.assertIsolated()
        refreshes += 1
    }
}

/// An actor that owns a multicast of delegates that are not `Sendable`, and calls them on itself.
actor Station {
    private let listeners = MulticastDelegate<any Listener>()
    private var recorders: [Recorder] = []
    private(set) var events = 0

    func addRecorders(_ names: [String], log: CallLog) {
        for name in names {
            let recorder = Recorder(name, log: log)
            recorders.append(recorder)
            listeners.add(recorder)
        }
    }

    func broadcast() async {
        await listeners.inTurn.call { listener in
            self.assertIsolated()
            events += 1
            await Task.yield()
            self.assertIsolated()
            listener.hear(events)
        }
    }
}

/// Work that leaves the caller's actor and comes back.
@concurrent
func leaveTheActor() async {
    await Task.yield()
}

@Suite struct AsyncCallTests {
    @Test func callsDelegatesOneAfterAnotherInOrder() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Listener>()
        let recorders = ["a", "b", "c"].map { Recorder($0, log: log) }
        defer { extendLifetime(recorders) }
        for recorder in recorders { delegates.add(recorder) }

        await delegates.inTurn.call { listener in
            log.append("\(listener.name) begins")
            await Task.yield()
            listener.hear(1)
            log.append("\(listener.name) ends")
        }

        #expect(log.calls == ["a begins", "a", "a ends", "b begins", "b", "b ends", "c begins", "c", "c ends"])
    }

    @Test func delegateRemovedWhileAnEarlierOneIsSuspendedIsNotCalled() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Listener & Sendable>()
        let (a, b, c) = (SharedListener("a"), SharedListener("b"), SharedListener("c"))
        for listener in [a, b, c] { delegates.add(listener) }
        let aIsSuspended = Gate()
        let bIsRemoved = Gate()
        let remover = Task {
            await aIsSuspended.wait()
            delegates.remove(b)
            bIsRemoved.open()
        }

        await delegates.inTurn.call { listener in
            log.append(listener.name)
            if listener === a {
                aIsSuspended.open()
                await bIsRemoved.wait()
            }
        }
        await remover.value

        #expect(log.calls == ["a", "c"])
    }

    @Test func delegateDeallocatedWhileAnEarlierOneIsSuspendedIsNotCalled() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Listener & Sendable>()
        let a = SharedListener("a")
        let owner = Guarded<SharedListener?>(SharedListener("b"))
        let c = SharedListener("c")
        delegates.add(a)
        delegates.add(owner.value!)
        delegates.add(c)
        let aIsSuspended = Gate()
        let bIsReleased = Gate()
        let releaser = Task {
            await aIsSuspended.wait()
            owner.value = nil
            bIsReleased.open()
        }

        await delegates.inTurn.call { listener in
            log.append(listener.name)
            if listener === a {
                aIsSuspended.open()
                await bIsReleased.wait()
            }
        }
        await releaser.value

        #expect(log.calls == ["a", "c"])
        #expect(delegates.count == 2)
    }

    @Test func delegateIsKeptAliveWhileItsBodyIsSuspended() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Listener>()
        var owner: Recorder? = Recorder("a", log: log)
        weak let weakRecorder = owner
        delegates.add(owner!)

        var aliveDuringTheBody = false
        await delegates.inTurn.call { listener in
            owner = nil  // the multicast holds the delegate weakly; the call holds it until the body ends
            await Task.yield()
            aliveDuringTheBody = weakRecorder != nil
            listener.hear(1)
        }

        #expect(aliveDuringTheBody)
        #expect(log.calls == ["a"])
        #expect(weakRecorder == nil)
        #expect(delegates.isEmpty)
    }

    @Test func delegateAddedDuringTheCallWaitsForTheNextOneButANestedCallSeesIt() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Listener>()
        let recorders = ["a", "b", "c"].map { Recorder($0, log: log) }
        for recorder in recorders { delegates.add(recorder) }
        let latecomer = Recorder("d", log: log)

        await delegates.inTurn.call { listener in
            listener.hear(1)
            guard listener === recorders[0] else { return }
            delegates.add(latecomer)
            await Task.yield()
            await delegates.inTurn.call { nested in
                await Task.yield()
                log.append("nested \(nested.name)")
            }
        }

        #expect(log.calls == ["a", "nested a", "nested b", "nested c", "nested d", "b", "c"])
    }

    @Test func firstErrorStopsTheCallAndIsRethrown() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Listener>()
        let recorders = ["a", "b", "c"].map { Recorder($0, log: log) }
        defer { extendLifetime(recorders) }
        for recorder in recorders { delegates.add(recorder) }

        await #expect(throws: Stop(name: "b")) {
            try await delegates.inTurn.call { listener in
                await Task.yield()
                listener.hear(1)
                if listener.name == "b" { throw Stop(name: "b") }
            }
        }

        #expect(log.calls == ["a", "b"])
        log.clear()
        delegates.remove(recorders[0])  // the pass has ended: the multicast works as before
        delegates.call { $0.hear(2) }
        #expect(log.calls == ["b", "c"])
    }

    @Test func aTypedErrorKeepsItsTypeAcrossSuspensions() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Listener>()
        let recorders = ["a", "b", "c"].map { Recorder($0, log: log) }
        defer { extendLifetime(recorders) }
        for recorder in recorders { delegates.add(recorder) }
        func stop() async throws(Stop) {
            try await delegates.inTurn.call { listener async throws(Stop) in
                await Task.yield()
                listener.hear(1)
                if listener.name == "b" { throw Stop(name: "b") }
            }
        }
        do {
            try await stop()
            Issue.record("the call did not throw")
        } catch {
            #expect(error == Stop(name: "b"))  // compiles only because `error` is a `Stop`
        }
        #expect(log.calls == ["a", "b"])
    }

    @Test func synchronousClosureInAnAsyncContextPicksTheSynchronousCall() async throws {
        let log = CallLog()
        let delegates = MulticastDelegate<any Listener>()
        let recorders = ["a", "b"].map { Recorder($0, log: log) }
        defer { extendLifetime(recorders) }
        for recorder in recorders { delegates.add(recorder) }

        // This compiles only because the synchronous `call` is chosen: the async one would demand `await`.
        // (Scripts/check-compile-diagnostics.sh shows that `await` here draws a warning.)
        delegates.call { $0.hear(1) }
        #expect(throws: Stop(name: "a")) {
            try delegates.call { if $0.name == "a" { throw Stop(name: "a") } }
        }

        #expect(log.calls == ["a", "b"])
    }

    @MainActor
    @Test func mainActorCallerRunsEveryBodyOnTheMainActor() async {
        let log = CallLog()
        let delegates = MulticastDelegate<any Listener>()
        let recorders = ["a", "b"].map { Recorder($0, log: log) }
        for recorder in recorders { delegates.add(recorder) }
        var bodies = 0  // main-actor state, changed by the bodies without `await`

        await delegates.inTurn.call { listener in
            // Under `swift test` on Linux the main actor's jobs do not run on the main thread (the test runner
            // holds it), so `Thread.isMainThread` tells nothing there; the executor check does, in every build.
            MainActor.preconditionIsolated()
            await leaveTheActor()
            MainActor.preconditionIsolated()
            bodies += 1
            listener.hear(bodies)
        }

        #expect(bodies == 2)
        #expect(recorders.map(\.heard) == [[1], [2]])
    }

    @Test func actorCallerRunsEveryBodyOnTheActor() async {
        let log = CallLog()
        let station = Station()
        await station.addRecorders(["a", "b", "c"], log: log)

        await station.broadcast()

        #expect(log.calls == ["a", "b", "c"])
        #expect(await station.events == 3)
    }

    @MainActor
    @Test func mainActorDelegatesAreCalledAsynchronouslyFromMainActorCode() async {
        let viewers = MulticastDelegate<any DocumentViewer>()
        let screens = [ViewerScreen(), ViewerScreen(), ViewerScreen()]
        for screen in screens { viewers.add(screen) }

        await viewers.inTurn.call { await $0.reload() }

        #expect(screens.map(\.reloads) == [1, 1, 1])
    }

    @MainActor
    @Test func isolatedConformanceIsCallableFromMainActorCode() async {
        let refreshables = MulticastDelegate<any Refreshable>()
        let screens = [RefreshingScreen(), RefreshingScreen()]
        for screen in screens { refreshables.add(screen) }

        refreshables.call { $0.refresh() }
        await refreshables.inTurn.call { refreshable in
            await leaveTheActor()
            refreshable.refresh()
        }

        #expect(screens.map(\.refreshes) == [2, 2])
    }
}
