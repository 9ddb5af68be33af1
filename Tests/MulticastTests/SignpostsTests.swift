import MulticastChecks
import Testing

@testable import Multicast

/// Signposts: the settings that carry them, and calls that keep working with them, on every platform. The
/// intervals themselves exist only where there is an `os` module; here, where there is none, a call makes none
/// and reads nothing for one.
@Suite struct SignpostsTests {
    let log = CallLog()

    @Test func signpostsAreOffUnlessAsked() {
        #expect(MulticastDiagnostics().signposts == nil)
        #expect(MulticastDiagnostics.printing.signposts == nil)
    }

    @Test func theReadySettingsCarryTheSignpostsAndNothingElse() {
        let ready = MulticastDiagnostics.signposting
        #expect(ready.signposts?.subsystem == "Multicast" && ready.signposts?.category == "Calls")
        #expect(ready.traceHandler == nil && ready.slowTurnHandler == nil && ready.slowTurnNanoseconds == nil)

        let custom = MulticastDiagnostics.signposting(MulticastSignposts(subsystem: "com.example", category: "Events"))
        #expect(custom.signposts?.subsystem == "com.example" && custom.signposts?.category == "Events")
    }

    @Test func callsWithSignpostsReachEveryDelegateAndStillGiveTheirTraces() async {
        let delegates = MulticastDelegate<any Listener>(label: "signposted")
        let traces = Guarded<[MulticastTrace]>([])
        var settings = MulticastDiagnostics(traceHandler: { trace in traces.withValue { $0.append(trace) } })
        settings.signposts = .default
        delegates.diagnostics = settings
        let recorders = ["a", "b"].map { Recorder($0, log: log) }
        for recorder in recorders { delegates.add(recorder) }
        defer { extendLifetime(recorders) }

        delegates.call { $0.hear(1) }
        await delegates.inTurn.call { $0.hear(2) }
        delegates.diagnostics = .signposting
        delegates.call { $0.hear(3) }

        #expect(log.calls == ["a", "b", "a", "b", "a", "b"])
        #expect(traces.value.map(\.operation) == [.call, .inTurnCall])
        #expect(traces.value.map(\.turns.count) == [2, 2])
    }

    @Test func noIntervalIsMadeWithoutSignposts() {
        let interval = _SignpostInterval(nil, operation: .call, label: unreadLabel())
        #expect(interval == nil)
    }

    #if !canImport(os)
    @Test func withoutAnOSModuleNoIntervalIsMadeAndTheLabelIsNotRead() {
        let interval = _SignpostInterval(.default, operation: .call, label: unreadLabel())
        #expect(interval == nil)
    }
    #endif

    /// A label that records an issue if it is read: an interval that is not made must not pay for it.
    func unreadLabel() -> String? {
        Issue.record("the label was read for an interval that is not made")
        return nil
    }
}
