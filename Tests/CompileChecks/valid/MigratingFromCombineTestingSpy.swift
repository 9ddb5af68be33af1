// snippet.with: MigratingFromCombineThreads.swift
import Multicast
import Testing

/// Records what it hears.
@MainActor
final class QuoteSpy: QuoteObserver {
    private(set) var quotes: [String] = []

    func quoteDidChange(symbol: String, cents: Int) { quotes.append("\(symbol) \(cents)") }
    func quotesWillReload() async {}
}

@Suite struct QuoteServiceTests {
    @MainActor
    @Test func aQuoteReachesTheObservers() async {
        let service = QuoteService()  // its own multicast: no other test posts to it
        let spy = QuoteSpy()
        service.observers.add(spy)

        await service.receive(symbol: "SWIFT", cents: 600)  // returns once every observer has heard

        #expect(spy.quotes == ["SWIFT 600"])
    }
}
