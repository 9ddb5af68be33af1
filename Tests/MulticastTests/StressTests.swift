import Testing

@testable import MulticastChecks

/// Threads sharing multicasts and a pool of delegates (see `MulticastChecks/Stress.swift` for the invariants).
///
/// Runs under the thread sanitizer in `Scripts/check-reliability.sh`. `MULTICAST_STRESS_THREADS` and
/// `MULTICAST_STRESS_OPS` (operations per thread) size it; by default 4 threads x 20,000 operations.
@Suite struct StressTests {
    static let threads = environment("MULTICAST_STRESS_THREADS").flatMap { Int($0) } ?? 4
    static let operations = environment("MULTICAST_STRESS_OPS").flatMap { Int($0) } ?? 20_000

    @Test func sharedMulticastsKeepTheirPromisesUnderLoad() {
        let configuration = StressConfiguration(threads: Self.threads, operationsPerThread: Self.operations)
        let report = runStress(configuration)
        #expect(report.finished, "threads still running after \(configuration.timeout) s: a deadlock")
        #expect(report.violations.isEmpty, "\(report)")
        #expect(report.operations == Self.threads * Self.operations)
        #expect(report.passes > 0 && report.calls > 0 && report.removals > 0)
    }

    @Test func aCallAfterRemoveReturnedIsReported() {
        let record = DelegateRecord(id: 0)
        record.added(list: 0, start: 1, end: 2)
        record.removed(list: 0, start: 3, end: 4)
        record.called(list: 0, pass: 5, turns: 6, since: 5)
        #expect(violations(of: record, passCalls: 1, [[]]).count == 1)
    }

    @Test func aCallAfterAnOverlappingAddIsNotReported() {
        let record = DelegateRecord(id: 0)
        record.added(list: 0, start: 1, end: 2)
        record.removed(list: 0, start: 3, end: 6)
        record.added(list: 0, start: 4, end: 5)  // may have run after the removal
        record.called(list: 0, pass: 7, turns: 8, since: 7)
        #expect(violations(of: record, passCalls: 1, [[]]).isEmpty)
    }

    @Test func aCallTheDelegateDidNotHearIsReported() {
        let record = DelegateRecord(id: 0)
        record.added(list: 0, start: 1, end: 2)
        record.called(list: 0, pass: 3, turns: 4, since: 3)
        record.called(list: 0, pass: 3, turns: 4, since: 5)
        let found = violations(of: record, passCalls: 1, [[]])
        #expect(found.count == 2)  // twice in one pass, and one call more than the passes made
    }
}
