import MulticastChecks
import Testing

@testable import Multicast

/// Registrations that ended before their first call: a weak delegate, or the owner of an owned one, deallocated
/// before the multicast called the delegate, named with its class and site in the next traced call's trace and
/// listed by `registrationsEndedBeforeTheirFirstCall()`; never one whose delegate was called, nor one whose calls
/// may have gone untraced.
@Suite struct UncalledRegistrationTests {
    let log = CallLog()

    /// An object that owns a registration and nothing else.
    final class Store {}

    /// Settings whose trace handler keeps every trace.
    static func collecting(into traces: Guarded<[MulticastTrace]>) -> MulticastDiagnostics {
        MulticastDiagnostics(traceHandler: { trace in traces.withValue { $0.append(trace) } })
    }

    @Test func aWeakDelegateFreedBeforeItsFirstCallIsNamedInTheNextTraceAndListed() throws {
        let delegates = MulticastDelegate<any Listener>(label: "uncalled-weak")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting(into: traces)
        let kept = Recorder("kept", log: log)
        delegates.add(kept)
        var gone: Recorder? = Recorder("gone", log: log)
        let line = #line + 1
        delegates.add(gone!)
        gone = nil

        delegates.call { $0.hear(1) }
        delegates.call { $0.hear(2) }

        #expect(log.calls == ["kept", "kept"])
        try #require(traces.value.count == 2)
        let ended = traces.value[0].endedBeforeTheirFirstCall
        #expect(ended.map(\.delegateTypeName) == ["Recorder"])
        #expect(ended.map(\.ownerTypeName) == [nil])
        #expect(ended.map(\.site.line) == [UInt(line)])
        #expect(ended.first?.site.fileID == "MulticastTests/UncalledRegistrationTests.swift")
        #expect(
            traces.value[0].description.hasSuffix(
                "\n  gone before its first call: Recorder (weak, UncalledRegistrationTests.swift:\(line))"))
        // Named once, by the call that found it gone.
        #expect(traces.value[1].endedBeforeTheirFirstCall.isEmpty)
        #expect(!traces.value[1].description.contains("gone before"))
        #expect(
            delegates.registrationsEndedBeforeTheirFirstCall().map(\.description) == [
                "Recorder (weak, UncalledRegistrationTests.swift:\(line))"
            ])
        extendLifetime(kept)
    }

    @Test func anOwnerThatDiedBeforeItsRegistrationWasCalledIsNamedWithItsClassAndListed() throws {
        let delegates = MulticastDelegate<any Listener>(label: "uncalled-owned")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting(into: traces)
        var owner: Store? = Store()
        let line = #line + 1
        delegates.add(Recorder("owned", log: log), ownedBy: owner!)
        owner = nil

        delegates.call { $0.hear(1) }

        #expect(log.calls.isEmpty)
        let ended = try #require(traces.value.first).endedBeforeTheirFirstCall
        #expect(ended.map(\.delegateTypeName) == ["Recorder"])
        #expect(ended.map(\.ownerTypeName) == ["Store"])
        #expect(ended.map(\.site.line) == [UInt(line)])
        #expect(ended.map(\.description) == ["Recorder (owned by Store, UncalledRegistrationTests.swift:\(line))"])
        #expect(delegates.registrationsEndedBeforeTheirFirstCall().map(\.site.line) == [UInt(line)])
    }

    @Test func theListingFindsARegistrationGoneWithoutACall() {
        let delegates = MulticastDelegate<any Listener>(label: "listed-without-call")
        delegates.diagnostics = .printing { _ in }
        let kept = Recorder("kept", log: log)
        delegates.add(kept)
        var owner: Store? = Store()
        let line = #line + 1
        delegates.add(Recorder("owned", log: log), ownedBy: owner!)
        owner = nil

        let listed = delegates.registrationsEndedBeforeTheirFirstCall()
        #expect(listed.map(\.description) == ["Recorder (owned by Store, UncalledRegistrationTests.swift:\(line))"])
        // Listed once.
        #expect(delegates.registrationsEndedBeforeTheirFirstCall().count == 1)
        extendLifetime(kept)
    }

    @Test func aDelegateThatWasCalledAndThenDiedIsNotNamed() {
        let delegates = MulticastDelegate<any Listener>(label: "called-then-gone")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting(into: traces)
        var weak: Recorder? = Recorder("weak", log: log)
        var owner: Store? = Store()
        delegates.add(weak!)
        delegates.add(Recorder("owned", log: log), ownedBy: owner!)

        delegates.call { $0.hear(1) }
        weak = nil
        owner = nil
        delegates.call { $0.hear(2) }

        #expect(log.calls == ["weak", "owned"])
        #expect(traces.value.count == 2)
        #expect(traces.value.allSatisfy { $0.endedBeforeTheirFirstCall.isEmpty })
        #expect(delegates.registrationsEndedBeforeTheirFirstCall().isEmpty)
    }

    @Test func aRegistrationWhoseCallsMayHaveGoneUntracedIsNotNamed() {
        let delegates = MulticastDelegate<any Listener>(label: "untraced-gap")
        let traces = Guarded<[MulticastTrace]>([])
        // Added while sites alone were recorded: calls then were not traced.
        delegates.diagnostics = .recordingSites
        var beforeTrace: Recorder? = Recorder("before", log: log)
        delegates.add(beforeTrace!)
        delegates.call { $0.hear(1) }
        // Added while traced, then called while diagnostics were off.
        delegates.diagnostics = Self.collecting(into: traces)
        var offMeanwhile: Recorder? = Recorder("off", log: log)
        delegates.add(offMeanwhile!)
        delegates.diagnostics = nil
        delegates.call { $0.hear(2) }
        delegates.diagnostics = Self.collecting(into: traces)
        beforeTrace = nil
        offMeanwhile = nil

        delegates.call { $0.hear(3) }

        #expect(log.calls == ["before", "before", "off"])
        #expect(traces.value.count == 1)
        #expect(traces.value.allSatisfy { $0.endedBeforeTheirFirstCall.isEmpty })
        #expect(delegates.registrationsEndedBeforeTheirFirstCall().isEmpty)
    }

    @Test func recordingSitesRecordsEachSiteAndTypeAndTracesNoCall() {
        let delegates = MulticastDelegate<any Listener>(label: "recording-sites")
        delegates.diagnostics = .recordingSites
        let recorder = Recorder("a", log: log)
        let line = #line + 1
        delegates.add(recorder)
        #expect(delegates.diagnostics?.traceHandler == nil)
        #expect(delegates.diagnostics?.slowTurnHandler == nil)
        #expect(delegates._notes.settings?.tracesCalls == false)
        #expect(delegates.registeredDelegates().map(\.site?.line) == [UInt(line)])
        extendLifetime(recorder)
    }

    @Test func printingGivesALinePerRegistrationEndedBeforeItsFirstCall() {
        let delegates = MulticastDelegate<any Listener>(label: "printing-uncalled")
        let lines = Guarded<[String]>([])
        delegates.diagnostics = .printing { line in lines.withValue { $0.append(line) } }
        var gone: Recorder? = Recorder("gone", log: log)
        let line = #line + 1
        delegates.add(gone!)
        gone = nil

        delegates.call { $0.hear(1) }

        #expect(lines.value.count == 2)
        #expect(lines.value.first?.hasPrefix("printing-uncalled call, 0 delegates, ") == true)
        #expect(
            lines.value.last == "  gone before its first call: Recorder (weak, UncalledRegistrationTests.swift:\(line))"
        )
    }

    /// The newcomer's case: a delegate added weakly by mistake is freed at once; it was the first registration, and
    /// the next add, which finds the list of delegates full, finds it gone before any call.
    @Test func aFirstDelegateFreedBeforeALaterAddIsNamedByTheNextTraceAndListed() throws {
        let delegates = MulticastDelegate<any Listener>(label: "first-freed")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting(into: traces)
        let line = #line + 1
        delegates.add(Recorder("gone", log: log))  // freed at once: nothing else holds it
        let kept = Recorder("kept", log: log)
        defer { extendLifetime(kept) }
        delegates.add(kept)

        #expect(delegates.registrationsEndedBeforeTheirFirstCall().map(\.site.line) == [UInt(line)])
        delegates.call { $0.hear(1) }
        let trace = try #require(traces.value.first)
        #expect(
            trace.endedBeforeTheirFirstCall.map(\.description) == [
                "Recorder (weak, UncalledRegistrationTests.swift:\(line))"
            ])
        #expect(log.calls == ["kept"])
    }

    /// The path the article advises: sites recorded from launch, tracing turned on once something looks wrong. A
    /// registration that ended before any call, found gone by calls that settings only watched, is named by the
    /// first trace; one whose delegate such a call called is not.
    @Test func withSitesRecordedFromTheStartTheFirstTraceNamesARegistrationGoneBeforeAnyCall() throws {
        let delegates = MulticastDelegate<any Listener>(label: "recording-then-tracing")
        delegates.diagnostics = .recordingSites
        var calledOnce: Recorder? = Recorder("called", log: log)
        delegates.add(calledOnce!)
        let kept = Recorder("kept", log: log)
        defer { extendLifetime(kept) }
        delegates.add(kept)
        delegates.call { $0.hear(1) }
        calledOnce = nil
        var gone: Recorder? = Recorder("gone", log: log)
        let line = #line + 1
        delegates.add(gone!)
        gone = nil
        delegates.call { $0.hear(2) }  // finds both gone: only watched
        delegates.call { $0.hear(3) }

        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting(into: traces)
        delegates.call { $0.hear(4) }
        delegates.call { $0.hear(5) }

        #expect(traces.value.count == 2)
        #expect(traces.value.first?.endedBeforeTheirFirstCall.map(\.site.line) == [UInt(line)])
        #expect(traces.value.last?.endedBeforeTheirFirstCall.isEmpty == true)  // named once
        #expect(delegates.registrationsEndedBeforeTheirFirstCall().map(\.site.line) == [UInt(line)])
    }

    @Test func anInTurnCallNamesARegistrationItFoundGone() async {
        let delegates = MulticastDelegate<any Listener>(label: "in-turn-uncalled")
        let traces = Guarded<[MulticastTrace]>([])
        delegates.diagnostics = Self.collecting(into: traces)
        var gone: Recorder? = Recorder("gone", log: log)
        delegates.add(gone!)
        gone = nil

        await delegates.inTurn.call { $0.hear(1) }

        #expect(traces.value.map(\.endedBeforeTheirFirstCall.count) == [1])
    }
}
