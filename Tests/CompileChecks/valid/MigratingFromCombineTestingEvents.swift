// snippet.with: MigratingFromCombineThreads.swift
// snippet.with: MigratingFromCombineEvents.swift
import Multicast
import Testing

@Suite struct QuoteStreamTests {
    @MainActor
    @Test func pricesArriveInTheOrderTheyWereReceived() async {
        let service = QuoteService()
        // Made before the quotes are sent, so that none is missed; `.unbounded`, so that none is dropped.
        let prices = service.observers.events(bufferingPolicy: .unbounded) { Prices(of: "SWIFT", $0) }

        Task {  // the network, which the test does not await
            await service.receive(symbol: "SWIFT", cents: 600)
            await service.receive(symbol: "SWIFT", cents: 610)
        }

        var received: [Int] = []
        for await cents in prices {
            received.append(cents)
            if received.count == 2 { break }  // the first two; `prices` removes its forwarder when it goes
        }
        #expect(received == [600, 610])
    }
}
