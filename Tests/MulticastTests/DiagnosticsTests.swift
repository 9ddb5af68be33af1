import Foundation
import MulticastChecks
import Testing

@testable import Multicast

/// Diagnostics: sites recorded only while on, traces of each call in order with each turn, process-wide and
/// per-multicast settings, slow turns, who is still registered, and handlers that call back into the multicast.
///
/// Serialized, since the process-wide settings are the process's: the tests that set them filter what they
/// receive by their multicast's label, as calls of other suites' multicasts, running meanwhile, reach them too.
@Suite(.serialized) struct DiagnosticsTests {
    let log = CallLog()

    /// Settings whose trace handler keeps the traces of the multicast labelled `label`.
    static func collecting(_ label: String, into traces: Guarded<[MulticastTrace]>) -> MulticastDiagnostics {
        MulticastDiagnostics(traceHandler: { trace in
            if trace.label == label { traces.withValue { $0.append(trace) } }
        })
    }

    @Test func sitesAreRecordedOnlyWhileDiagnosticsAreOn() {
        let delegates = MulticastDelegate<any Listener>()
        let before = Recorder("before", log: log)
        let during = Recorder("during", log: log)
        let strong = Recorder("strong", log: log)
        let viaRegistration = Recorder("registration", log: log)
        let after = Recorder("after", log: log)
        defer { extendLifetime((before, during, strong, viaRegistration, after)) }

        delegates.add(before)
        delegates.diagnostics = MulticastDiagnostics()
        let line = #line + 1
        delegates.add(during)
        delegates.add(strong, retention: .strong)
        delegates.registration.add(viaRegistration)
        delegates.diagnostics = nil
        delegates.add(after)

        let registered = delegates.registeredDelegates()
        #expect(registered.map(\.delegate.name) == ["before", "during", "strong", "registration", "after"])
        #expect(registered.map(\.site?.line) == [nil, UInt(line), UInt(line + 1), UInt(line + 2), nil])
        #expect(registered[1].site?.fileID == "MulticastTests/DiagnosticsTests.swift")
        #expect(registered[1].site?.description == "DiagnosticsTests.swift:\(line)")
        #expect(registered.map(\.retention) == [.weak, .weak, .strong, .weak, .weak])
    }

    @Test func aMulticastWithoutSettingsRecordsNoSiteWhileAnotherHasThem() {
        let traced = MulticastDelegate<any Listener>()
        let plain = MulticastDelegate<any Listener>()
        let recorder = Recorder("a", log: log)
        defer { extendLifetime(recorder) }
        traced.diagnostics = MulticastDiagnostics()
        defer { traced.diagnostics = nil }
        plain.add(recorder)
        traced.add(recorder)
        #expect(plain.registeredDelegates().map(\.site) == [nil])
        #expect(traced.registeredDelegates().map { $0.site != nil } == [true])
    }

    @Test func aTraceListsEachTurnInCallOrderWithItsDelegateRetentionAndSite() {
        let delegates = MulticastDelegate<any Listener>(label: "trace-order")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("trace-order", into: traces)
        let first = Recorder("first", log: log)
        let second = NamedRecorder("second", log: log)
        let line = #line + 1
        delegates.add(first)
        delegates.add(second, retention: .strong)
        defer { extendLifetime((first, second)) }

        delegates.call { $0.hear(1) }

        #expect(log.calls == ["first", "second"])
        let trace = try! #require(traces.value.first)
        #expect(traces.value.count == 1)
        #expect(trace.label == "trace-order")
        #expect(trace.multicastName == "trace-order")
        #expect(trace.operation == .call)
        #expect(!trace.threw)
        #expect(trace.turns.map(\.delegateID) == [ObjectIdentifier(first), ObjectIdentifier(second)])
        #expect(
            trace.turns.map { ObjectIdentifier($0.delegateType) } == [
                ObjectIdentifier(Recorder.self), ObjectIdentifier(NamedRecorder.self),
            ])
        #expect(trace.turns.map(\.delegateTypeName) == ["Recorder", "NamedRecorder"])
        #expect(trace.turns.map(\.retention) == [.weak, .strong])
        #expect(trace.turns.map(\.site?.line) == [UInt(line), UInt(line + 1)])
        #expect(trace.elapsedNanoseconds >= trace.turns.map(\.elapsedNanoseconds).reduce(0, +))
        let description = trace.description
        #expect(description.hasPrefix("trace-order call, 2 delegates, "), "\(description)")
        #expect(description.contains(": Recorder (weak, DiagnosticsTests.swift:\(line)) "), "\(description)")
        #expect(description.contains(", NamedRecorder (strong, DiagnosticsTests.swift:\(line + 1)) "), "\(description)")
    }

    @Test func aMulticastWithoutALabelIsNamedByItsType() {
        let delegates = MulticastDelegate<any Listener>()
        let names = Guarded<[String]>([])
        delegates.diagnostics = MulticastDiagnostics(traceHandler: { trace in
            names.withValue { $0.append(trace.multicastName) }
        })
        delegates.call { $0.hear(1) }
        #expect(delegates.label == nil)
        #expect(names.value == ["MulticastDelegate<Listener>"])
    }

    @Test func aCallThatThrowsIsTracedUpToTheTurnThatThrew() {
        let delegates = MulticastDelegate<any Listener>(label: "throws")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("throws", into: traces)
        let recorders = ["a", "b", "c"].map { Recorder($0, log: log) }
        for recorder in recorders { delegates.add(recorder) }
        defer { extendLifetime(recorders) }

        #expect(throws: Stop(name: "b")) {
            try delegates.call { delegate throws(Stop) in
                delegate.hear(1)
                if delegate.name == "b" { throw Stop(name: "b") }
            }
        }
        #expect(traces.value.map(\.threw) == [true])
        #expect(traces.value.first?.turns.map(\.delegateID) == recorders.prefix(2).map(ObjectIdentifier.init))
    }

    @Test func diagnosticsOffCallNoHandler() {
        let delegates = MulticastDelegate<any Listener>(label: "off")
        let calls = Guarded(0)
        let recorder = Recorder("a", log: log)
        delegates.add(recorder)
        defer { extendLifetime(recorder) }
        delegates.diagnostics = MulticastDiagnostics(
            traceHandler: { _ in calls.withValue { $0 += 1 } }, slowTurnNanoseconds: 0,
            slowTurnHandler: { _, _ in calls.withValue { $0 += 1 } })
        delegates.call { $0.hear(1) }
        #expect(calls.value == 2)  // the trace and the turn, longer than 0 ns
        delegates.diagnostics = nil
        delegates.call { $0.hear(2) }
        #expect(calls.value == 2)
        #expect(delegates.diagnostics == nil)
    }

    @Test func processWideSettingsApplyToEveryMulticastWithoutItsOwn() {
        let withoutOwn = MulticastDelegate<any Listener>(label: "process-wide")
        let withOwn = MulticastDelegate<any Listener>(label: "own")
        let processTraces = Guarded<[MulticastTrace]>([])
        let ownTraces = Guarded<[MulticastTrace]>([])
        withOwn.diagnostics = Self.collecting("own", into: ownTraces)
        MulticastDiagnostics.processWide = MulticastDiagnostics(traceHandler: { trace in
            if trace.label == "process-wide" || trace.label == "own" { processTraces.withValue { $0.append(trace) } }
        })
        let recorder = Recorder("a", log: log)
        defer { extendLifetime(recorder) }
        withoutOwn.add(recorder)
        withOwn.add(recorder)

        withoutOwn.call { $0.hear(1) }
        withOwn.call { $0.hear(2) }
        MulticastDiagnostics.processWide = nil
        withoutOwn.call { $0.hear(3) }
        withOwn.call { $0.hear(4) }

        #expect(processTraces.value.map(\.label) == ["process-wide"])
        #expect(ownTraces.value.map(\.label) == ["own", "own"])
        #expect(withoutOwn.registeredDelegates().map { $0.site != nil } == [true])
        #expect(MulticastDiagnostics.processWide == nil)
    }

    @Test func aTurnLongerThanTheThresholdIsReportedWithItsDelegateAndSite() {
        let delegates = MulticastDelegate<any Listener>(label: "slow")
        let slow = Guarded<[(MulticastTrace.Turn, String?)]>([])
        let traces = Guarded<[MulticastTrace]>([])
        let threshold: UInt64 = 10_000_000
        delegates.diagnostics = MulticastDiagnostics(
            traceHandler: { trace in traces.withValue { $0.append(trace) } }, slowTurnNanoseconds: threshold,
            slowTurnHandler: { turn, trace in slow.withValue { $0.append((turn, trace.label)) } })
        let quick = Recorder("quick", log: log)
        let sleeper = Recorder("sleeper", log: log) { _ in Thread.sleep(forTimeInterval: 0.05) }
        delegates.add(quick)
        let line = #line + 1
        delegates.add(sleeper)
        defer { extendLifetime((quick, sleeper)) }

        delegates.call { $0.hear(1) }

        let turns = try! #require(traces.value.first).turns
        #expect(turns[1].elapsedNanoseconds >= 50_000_000)
        // Which turns are slow follows from their times, whatever else the machine is doing.
        #expect(slow.value.map(\.0.delegateID) == turns.filter { $0.elapsedNanoseconds > threshold }.map(\.delegateID))
        #expect(slow.value.contains { $0.0.delegateID == ObjectIdentifier(sleeper) && $0.0.site?.line == UInt(line) })
        #expect(slow.value.allSatisfy { $0.1 == "slow" })
    }

    @Test func printingGivesALinePerCallAndPerSlowTurn() {
        let delegates = MulticastDelegate<any Listener>(label: "printed")
        let lines = Guarded<[String]>([])
        delegates.diagnostics = .printing(slowTurnNanoseconds: 0) { line in lines.withValue { $0.append(line) } }
        let recorder = Recorder("a", log: log)
        let line = #line + 1
        delegates.add(recorder)
        defer { extendLifetime(recorder) }
        delegates.call { $0.hear(1) }
        #expect(lines.value.count == 2)
        #expect(lines.value.first?.hasPrefix("printed call, 1 delegate, ") == true, "\(lines.value)")
        #expect(
            lines.value.last?.hasPrefix("slow delegate: Recorder (weak, DiagnosticsTests.swift:\(line)) took ") == true,
            "\(lines.value)")
        #expect(lines.value.last?.hasSuffix(", in printed call") == true, "\(lines.value)")
    }

    @Test func registeredDelegatesListTheStrongOnesWithWhereTheyWereAdded() {
        let delegates = MulticastDelegate<any Listener>()
        delegates.diagnostics = MulticastDiagnostics()
        let weak = Recorder("weak", log: log)
        delegates.add(weak)
        let strong = addStrongRecorder("strong", to: delegates, log: log)
        defer { extendLifetime(weak) }
        let leaks = delegates.registeredDelegates().filter { $0.retention == .strong }
        #expect(leaks.map { $0.delegate === strong() } == [true])
        // Added by the helper, whose own line is where the add is.
        #expect(leaks.first?.site?.fileID == "MulticastTests/Delegates.swift")
    }

    @Test func debugDescriptionAndMirrorShowEachRecordedSite() {
        let delegates = MulticastDelegate<any Listener>(label: "described")
        let before = NamedRecorder("before", log: log)
        let after = NamedRecorder("after", log: log)
        defer { extendLifetime((before, after)) }
        delegates.add(before)
        delegates.diagnostics = MulticastDiagnostics()
        let line = #line + 1
        delegates.add(after, retention: .strong)
        #expect(
            delegates.debugDescription
                == "Multicast.MulticastDelegate<MulticastTests.Listener>(label: \"described\")[NamedRecorder(\"before\") (weak), "
                + "NamedRecorder(\"after\") (strong, DiagnosticsTests.swift:\(line))]")
        #expect(
            delegates.description == "MulticastDelegate<Listener>(label: \"described\")[before (weak), after (strong)]")
        #expect(
            Mirror(reflecting: delegates).children.map(\.label) == ["weak", "strong (DiagnosticsTests.swift:\(line))"])
    }

    @Test func aHandlerMayUseTheMulticastAndItsCallsAreNotTraced() {
        let delegates = MulticastDelegate<any Listener & Sendable>(label: "reentrant")
        let traces = Guarded<[MulticastTrace]>([])
        let seen = Guarded<[String]>([])
        let first = SharedListener("first")
        let added = SharedListener("added")
        defer { extendLifetime((first, added)) }
        delegates.add(first)
        delegates.diagnostics = MulticastDiagnostics(traceHandler: { trace in
            guard trace.label == "reentrant" else { return }
            traces.withValue { $0.append(trace) }
            // Each of these takes the lock, so none would return if the handler ran with the lock held.
            let count = delegates.count
            let description = delegates.description
            delegates.add(added)
            delegates.call { $0.hear(2) }  // not traced: the handler would otherwise run again, without end
            delegates.remove(added)
            delegates.diagnostics = delegates.diagnostics
            seen.withValue { $0 = ["\(count)", description] }
        })
        delegates.call { $0.hear(1) }
        #expect(traces.value.count == 1)
        #expect(seen.value.first == "1")
        #expect(seen.value.last?.contains("(label: \"reentrant\")[") == true, "\(seen.value)")
        #expect(first.heard == [1, 2])
        #expect(added.heard == [2])
        delegates.call { $0.hear(3) }  // after the handler, calls are traced again
        #expect(traces.value.count == 2)
    }

    @Test func aNestedCallFromADelegateIsTracedOnItsOwn() {
        let delegates = MulticastDelegate<any Listener>(label: "nested")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("nested", into: traces)
        let inner = Recorder("inner", log: log)
        let outer = Recorder("outer", log: log) { recorder in
            if recorder.heard.count == 1 { delegates.call { $0.hear(2) } }
        }
        delegates.add(outer)
        delegates.add(inner)
        defer { extendLifetime((outer, inner)) }
        delegates.call { $0.hear(1) }
        // The nested call ends first, so its trace comes first.
        #expect(traces.value.map(\.turns.count) == [2, 2])
        #expect(log.calls == ["outer", "outer", "inner", "inner"])
    }

    @Test func tracingFromManyThreadsWhileSettingsChange() {
        let delegates = MulticastDelegate<any Listener & Sendable>(label: "threads")
        let traced = Guarded(0)
        let settings = MulticastDiagnostics(traceHandler: { trace in
            if trace.label == "threads" { traced.withValue { $0 += 1 } }
        })
        let listeners = (0..<4).map { SharedListener("\($0)") }
        defer { extendLifetime(listeners) }
        onThreads(4) { thread in
            for round in 0..<500 {
                switch (thread, round % 4) {
                case (0, 0): delegates.diagnostics = settings
                case (0, 2): delegates.diagnostics = nil
                case (1, 0): MulticastDiagnostics.processWide = settings
                case (1, 2): MulticastDiagnostics.processWide = nil
                default: break
                }
                delegates.add(listeners[thread])
                delegates.call { $0.hear(round) }
                _ = delegates.registeredDelegates()
                delegates.remove(listeners[thread])
            }
        }
        delegates.diagnostics = nil
        MulticastDiagnostics.processWide = nil
        let before = traced.value
        delegates.call { $0.hear(0) }
        #expect(traced.value == before, "a call was traced after every setting was cleared")
        #expect(before > 0)
    }

    @Test func eachInTurnMemberIsTracedAsItselfWithTheTurnsItTook() async {
        let delegates = MulticastDelegate<any Listener>(label: "in-turn")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("in-turn", into: traces)
        let recorders = ["a", "b", "c"].map { Recorder($0, log: log) }
        let line = #line + 1
        for recorder in recorders { delegates.add(recorder) }
        defer { extendLifetime(recorders) }

        await delegates.inTurn.call { delegate in
            await Task.yield()
            delegate.hear(1)
        }
        let names = await delegates.inTurn.map { delegate in delegate.name }
        let found = await delegates.inTurn.first { delegate in delegate.name == "b" }
        let contains = await delegates.inTurn.contains { delegate in delegate.name == "z" }
        let all = await delegates.inTurn.allSatisfy { delegate in delegate.name == "a" }

        #expect(names == ["a", "b", "c"] && found === recorders[1] && !contains && !all)
        #expect(
            traces.value.map(\.operation) == [
                .inTurnCall, .inTurnMap, .inTurnFirst, .inTurnContains, .inTurnAllSatisfy,
            ])
        // The first and allSatisfy stop at the answer that decides.
        #expect(traces.value.map(\.turns.count) == [3, 3, 2, 3, 2])
        #expect(traces.value.first?.turns.map(\.delegateID) == recorders.map(ObjectIdentifier.init))
        #expect(traces.value.first?.turns.map(\.site?.line) == Array(repeating: UInt(line), count: 3))
        #expect(traces.value.map(\.operation.description).first == "inTurn.call")
    }

    @Test func anInTurnCallThatThrowsIsTracedUpToTheTurnThatThrew() async {
        let delegates = MulticastDelegate<any Listener>(label: "in-turn-throws")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("in-turn-throws", into: traces)
        let recorders = ["a", "b", "c"].map { Recorder($0, log: log) }
        for recorder in recorders { delegates.add(recorder) }
        defer { extendLifetime(recorders) }
        await #expect(throws: Stop(name: "a")) {
            try await delegates.inTurn.call { delegate async throws(Stop) in throw Stop(name: delegate.name) }
        }
        #expect(traces.value.map(\.threw) == [true])
        #expect(traces.value.first?.turns.count == 1)
    }

    @Test func aConcurrentCallIsTracedWithEachTaskTimedInTheOrderAdded() async {
        let delegates = MulticastDelegate<any Worker>(label: "concurrently")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("concurrently", into: traces)
        let workers = ["a", "b", "c"].map(NamedWorker.init)
        let line = #line + 1
        for worker in workers { delegates.add(worker, retention: .strong) }
        defer { extendLifetime(workers) }

        await delegates.concurrently.call { worker in
            if worker.name == "b" { try? await Task.sleep(nanoseconds: 20_000_000) }
        }
        let names = await delegates.concurrently.map { worker in worker.name }

        #expect(names == ["a", "b", "c"])
        #expect(traces.value.map(\.operation) == [.concurrentlyCall, .concurrentlyMap])
        let turns = traces.value.first?.turns ?? []
        #expect(turns.map(\.delegateID) == workers.map(ObjectIdentifier.init))
        #expect(turns.map(\.retention) == [.strong, .strong, .strong])
        #expect(turns.map(\.site?.line) == Array(repeating: UInt(line), count: 3))
        #expect(turns.count == 3 && turns[1].elapsedNanoseconds >= 20_000_000)
        #expect(traces.value.first.map { $0.elapsedNanoseconds >= turns[1].elapsedNanoseconds } == true)
    }

    @Test func aConcurrentCallThatThrowsIsTracedWithEveryTask() async {
        let delegates = MulticastDelegate<any Worker>(label: "concurrently-throws")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("concurrently-throws", into: traces)
        let workers = ["a", "b"].map(NamedWorker.init)
        for worker in workers { delegates.add(worker) }
        defer { extendLifetime(workers) }
        await #expect(throws: Stop(name: "b")) {
            try await delegates.concurrently.call { worker async throws(Stop) in
                if worker.name == "b" { throw Stop(name: "b") }
            }
        }
        #expect(traces.value.map(\.threw) == [true])
        #expect(traces.value.first?.turns.count == 2)
    }

    @Test func switchingOtherSettingsOnManyThreadsLeavesEveryCallOfATracedMulticastTraced() {
        let traced = MulticastDelegate<any Listener & Sendable>(label: "untouched")
        let switchedMulticast = MulticastDelegate<any Listener & Sendable>(label: "switched")
        let traces = Guarded(0)
        traced.diagnostics = MulticastDiagnostics(traceHandler: { trace in
            if trace.label == "untouched" { traces.withValue { $0 += 1 } }
        })
        defer { traced.diagnostics = nil }
        let listener = SharedListener("a")
        traced.add(listener)
        defer { extendLifetime(listener) }
        let settings = MulticastDiagnostics()
        let switchers = 4
        let switched = Guarded(0)
        let calls = Guarded(0)
        let calling = Guarded(false)
        // Two threads switch another multicast's settings on and off, two the process's, a fixed number of times;
        // another calls the traced multicast from before they start until they are done.
        onThreads(switchers + 1) { thread in
            guard thread > 0 else {
                calling.value = true
                var round = 0
                while switched.value < switchers {
                    traced.call { $0.hear(round) }
                    round += 1
                }
                calls.value = round
                return
            }
            while !calling.value { sched_yield() }
            for _ in 0..<200_000 {
                if thread <= 2 {
                    switchedMulticast.diagnostics = settings
                    switchedMulticast.diagnostics = nil
                } else {
                    MulticastDiagnostics.processWide = settings
                    MulticastDiagnostics.processWide = nil
                }
            }
            switched.withValue { $0 += 1 }
        }
        #expect(calls.value > 0)
        #expect(traces.value == calls.value, "calls of a multicast whose settings never changed went untraced")
        #expect(MulticastDiagnostics.processWide == nil && switchedMulticast.diagnostics == nil)
    }

    @Test func aTraceKeepsTheSiteOfADelegateRemovedInALaterTurn() {
        let delegates = MulticastDelegate<any Listener>(label: "removed-later")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("removed-later", into: traces)
        let churned = Recorder("churned", log: log)
        let first = Recorder("first", log: log)
        let line = #line + 1
        delegates.add(first)
        // Removes the first delegate, then makes registrations enough that an add would drop the sites of those
        // that ended, while the call, whose trace needs the first's site, is under way.
        let remover = Recorder("remover", log: log) { _ in
            delegates.remove(first)
            for _ in 0..<20 {
                delegates.add(churned)
                delegates.remove(churned)
            }
        }
        delegates.add(remover)
        defer { extendLifetime((first, remover, churned)) }

        delegates.call { $0.hear(1) }

        #expect(log.calls == ["first", "remover"])
        #expect(traces.value.first?.turns.map(\.site?.line) == [UInt(line), UInt(line + 10)])
    }

    @Test func aListingAfterManyEndedRegistrationsStillHasTheSitesOfTheLiveOnes() {
        let delegates = MulticastDelegate<any Listener>()
        delegates.diagnostics = MulticastDiagnostics()
        let kept = Recorder("kept", log: log)
        let churned = Recorder("churned", log: log)
        defer { extendLifetime((kept, churned)) }
        let line = #line + 1
        delegates.add(kept)
        for _ in 0..<100 {
            delegates.add(churned)
            delegates.remove(churned)
        }
        #expect(delegates.registeredDelegates().map(\.site?.line) == [UInt(line)])
    }

    /// Operations of the async views, each traced; each asks its question of every delegate and finds none.
    static let tracedViews: [String] = [
        "inTurn.call", "inTurn.map", "inTurn.first", "inTurn.contains", "inTurn.allSatisfy", "concurrently.call",
        "concurrently.map",
    ]

    /// Runs the operation of a view that `name` names on `delegates`, asking each delegate a question that finds
    /// none.
    static func run(_ name: String, on delegates: MulticastDelegate<any Worker>) async {
        switch name {
        case "inTurn.call": await delegates.inTurn.call { _ in }
        case "inTurn.map": _ = await delegates.inTurn.map { $0.name }
        case "inTurn.first": _ = await delegates.inTurn.first { _ in false }
        case "inTurn.contains": _ = await delegates.inTurn.contains { _ in false }
        case "inTurn.allSatisfy": _ = await delegates.inTurn.allSatisfy { _ in true }
        case "concurrently.call": await delegates.concurrently.call { _ in }
        case "concurrently.map": _ = await delegates.concurrently.map { $0.name }
        default: Issue.record("no operation named \(name)")
        }
    }

    @Test(arguments: tracedViews)
    func aStrongDelegateThatATraceHandlerRemovesIsReleasedAtOnce(_ operation: String) async {
        let delegates = MulticastDelegate<any Worker>(label: "released")
        let worker = WeakWorker()
        do {
            let added = NamedWorker("a")
            worker.object = added
            delegates.add(added, retention: .strong)
        }
        let releasedAtOnce = Guarded<[Bool]>([])
        delegates.diagnostics = MulticastDiagnostics(traceHandler: { trace in
            guard trace.label == "released" else { return }
            let removed = worker.remove(from: delegates)
            releasedAtOnce.withValue { $0.append(removed && worker.object == nil) }
        })
        await Self.run(operation, on: delegates)
        #expect(releasedAtOnce.value == [true], "\(operation)")
    }

    @Test(arguments: [false, true])
    func aConcurrentCallLetsGoOfEachDelegateWhenItsBodyReturnsTracedOrNot(_ traced: Bool) async {
        let delegates = MulticastDelegate<any Worker>(label: "let-go")
        if traced { delegates.diagnostics = MulticastDiagnostics() }
        let quick = WeakWorker()
        do {
            let added = NamedWorker("quick")
            quick.object = added
            delegates.add(added, retention: .strong)
        }
        let slow = NamedWorker("slow")
        delegates.add(slow, retention: .strong)
        defer { extendLifetime(slow) }
        let quickReturned = Guarded(false)
        let releasedWhileSlowRuns = Guarded<Bool?>(nil)
        await delegates.concurrently.call { worker in
            guard worker.name == "slow" else {
                quickReturned.value = true
                return
            }
            // Waits for the quick body to return, removes its delegate, and waits for the delegate to go: its
            // task, done, holds it no more. A time limit only ends the wait of a test that fails.
            let deadline = Self.nanoseconds() + 10_000_000_000
            while !quickReturned.value && Self.nanoseconds() < deadline { await Task.yield() }
            _ = quick.remove(from: delegates)
            while quick.object != nil && Self.nanoseconds() < deadline {
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
            releasedWhileSlowRuns.value = quick.object == nil
        }
        #expect(releasedWhileSlowRuns.value == true)
    }

    static func nanoseconds() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    @Test func anOwnedRegistrationIsTracedAsOwnedWithItsOwnersClass() throws {
        let delegates = MulticastDelegate<any Listener>(label: "owned-trace")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("owned-trace", into: traces)
        let owner = Subscriber()
        let weak = Recorder("weak", log: log)
        defer { extendLifetime((owner, weak)) }
        delegates.add(weak)
        let line = #line + 1
        delegates.add(Recorder("owned", log: log), ownedBy: owner)
        delegates.call { $0.hear(1) }
        let turns = try #require(traces.value.first).turns
        #expect(turns.map(\.retention) == [.weak, .strong])
        #expect(turns.map { $0.ownerType.map { "\($0)" } } == [nil, "Subscriber"])
        #expect(
            turns.last?.description.hasPrefix("Recorder (owned by Subscriber, DiagnosticsTests.swift:\(line)) ") == true
        )
        #expect(
            traces.value.first?.description.contains("Recorder (owned by Subscriber, DiagnosticsTests.swift:\(line))")
                == true)
    }

    /// A listing on another thread meets each delegate with its site, however soon after its add it runs: the add
    /// records the site before any pass can meet the registration.
    @Test func aListingMadeWhileDelegatesAreAddedNeverMissesTheirSites() {
        let delegates = MulticastDelegate<any Listener & Sendable>(label: "listing-while-adding")
        delegates.diagnostics = .recordingSites
        let listeners = (0..<3000).map { SharedListener("l\($0)") }
        defer { extendLifetime(listeners) }
        let (missing, done) = (Guarded(0), Guarded(false))
        onThreads(2) { thread in
            if thread == 0 {
                for listener in listeners { delegates.add(listener, retention: .strong) }
                done.withValue { $0 = true }
            } else {
                while !done.value {
                    let unsited = delegates.registeredDelegates().filter { $0.site == nil }.count
                    missing.withValue { $0 += unsited }
                }
            }
        }
        #expect(missing.value == 0)
        #expect(delegates.registeredDelegates().allSatisfy { $0.site != nil })
    }

    /// Two threads replace one owner's registration again and again, each with a delegate of its own class, from a
    /// line of its own: every listing and every turn shows each registration with the site of the add that made it.
    @Test func racingReplacementsKeepEachRegistrationsOwnSiteAndClass() {
        let delegates = MulticastDelegate<any Listener & Sendable>(label: "racing-replacements")
        let mismatches = Guarded<[String]>([])
        delegates.diagnostics = MulticastDiagnostics(traceHandler: { trace in
            for turn in trace.turns where turn.site?.line != Self.replacementLine(of: turn.delegateType) {
                mismatches.withValue { $0.append("turn: \(turn)") }
            }
        })
        let owner = Subscriber()
        defer { extendLifetime(owner) }
        let done = Guarded(0)
        onThreads(4) { thread in
            switch thread {
            case 0, 1:
                for _ in 0..<3000 { Self.replace(in: delegates, ownedBy: owner, fromFirst: thread == 0) }
                done.withValue { $0 += 1 }
            case 2:
                while done.value < 2 { delegates.call { $0.hear(1) } }
            default:
                while done.value < 2 {
                    for registered in delegates.registeredDelegates()
                    where registered.site?.line != Self.replacementLine(of: type(of: registered.delegate)) {
                        mismatches.withValue {
                            $0.append("listed: \(registered.delegate.name) at \(String(describing: registered.site))")
                        }
                    }
                }
            }
        }
        #expect(mismatches.value.isEmpty, "\(mismatches.value.prefix(5))")
        #expect(delegates.count == 1)
    }

    /// The replacements of `racingReplacementsKeepEachRegistrationsOwnSiteAndClass()`, each class from its own line.
    static func replace(
        in delegates: MulticastDelegate<any Listener & Sendable>, ownedBy owner: AnyObject, fromFirst: Bool
    ) {
        if fromFirst {
            delegates.add(FirstReplacement("first"), ownedBy: owner, line: replacementLine(of: FirstReplacement.self))
        } else {
            delegates.add(
                SecondReplacement("second"), ownedBy: owner, line: replacementLine(of: SecondReplacement.self))
        }
    }

    /// The line that `replace(in:ownedBy:fromFirst:)` gives as the site of an add of a delegate of `type`.
    static func replacementLine(of type: Any.Type) -> UInt {
        type == FirstReplacement.self ? 1001 : 1002
    }

    final class FirstReplacement: Listener, Sendable {
        let name: String
        init(_ name: String) { self.name = name }
        func hear(_ event: Int) {}
    }

    final class SecondReplacement: Listener, Sendable {
        let name: String
        init(_ name: String) { self.name = name }
        func hear(_ event: Int) {}
    }

    /// An object that owns a registration.
    final class Subscriber: Sendable {}

    /// One object registered twice, weakly and owned: a traced concurrent call gives each registration a child task
    /// and a turn of its own, each timed by its own task.
    @Test func aConcurrentCallTimesTwoRegistrationsOfOneObjectEachInItsOwnTurn() async throws {
        let delegates = MulticastDelegate<any Worker>(label: "concurrently-twice")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting("concurrently-twice", into: traces)
        let worker = NamedWorker("twice")
        let owner = Subscriber()
        defer { extendLifetime((worker, owner)) }
        delegates.add(worker)
        delegates.add(worker, ownedBy: owner)

        await delegates.concurrently.call { _ in try? await Task.sleep(nanoseconds: 5_000_000) }

        let trace = try #require(traces.value.first)
        let turns = trace.turns
        #expect(turns.map(\.delegateID) == [ObjectIdentifier(worker), ObjectIdentifier(worker)])
        #expect(turns.map { $0.ownerType == nil } == [true, false])
        #expect(
            turns.allSatisfy {
                $0.elapsedNanoseconds >= 5_000_000 && $0.elapsedNanoseconds <= trace.elapsedNanoseconds
            },
            "\(turns.map(\.elapsedNanoseconds)) in \(trace.elapsedNanoseconds)")
    }

    @MainActor
    @Test func aForwarderIsRecordedAtTheSiteOfEvents() {
        let signIns = MulticastDelegate<any SignInObserver>()
        signIns.diagnostics = MulticastDiagnostics()
        let line = #line + 1
        let events = signIns.events(bufferingPolicy: .unbounded, SignInForwarder.init)
        let viaRegistration = signIns.registration.events(bufferingPolicy: .unbounded, SignInForwarder.init)
        defer { extendLifetime((events, viaRegistration)) }
        let sites = signIns.registeredDelegates().map(\.site)
        #expect(sites.map(\.?.line) == [UInt(line), UInt(line + 1)])
        #expect(sites.map(\.?.fileID) == Array(repeating: "MulticastTests/DiagnosticsTests.swift", count: 2))
    }
}

/// A worker held weakly, which a test removes from a multicast without keeping it alive.
final class WeakWorker: @unchecked Sendable {
    weak var object: NamedWorker?

    /// Removes the worker from `delegates`; returns whether it was registered. The strong reference taken for the
    /// removal is let go of when this returns.
    @inline(never)
    func remove(from delegates: MulticastDelegate<any Worker>) -> Bool {
        guard let object else { return false }
        return delegates.remove(object)
    }
}
