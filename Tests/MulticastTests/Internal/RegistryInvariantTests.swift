// Built with `MULTICAST_INTERNAL_CHECKS`, as CI's test runs are, the registry checks its invariant after every
// change; this test shows that it does, and CI fails if it did not run. Exit tests exist on these systems only.
#if MULTICAST_INTERNAL_CHECKS && (os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows))
import Testing

@testable import Multicast
@testable import _MulticastCore

@Suite struct RegistryInvariantTests {
    @Test func aChangeAfterTheInvariantBrokeStopsTheProgram() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target: Listener {
                let name = "target"
                func hear(_ event: Int) {}
            }
            let delegates = MulticastDelegate<any Listener>()
            let targets = [Target(), Target()]
            delegates.add(targets[0])
            delegates._core.withLock { $0.vacancies += 1 }  // a vacancy that no slot backs
            delegates.add(targets[1])
        }
        // The check is a `precondition`, which prints its message in a debug build only: an optimized build
        // stops the program without it.
        #if DEBUG
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("Multicast's internal check failed: 1 vacancies counted, 0 found"))
        #else
        _ = result
        #endif
    }
}
#endif
