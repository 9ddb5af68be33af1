// snippet.with: MigratingFromCombineThreads.swift
// snippet.hide
import Multicast

// snippet.show
/// Forwards the prices of one symbol into the stream.
@MainActor
final class Prices: QuoteObserver {
    let symbol: String
    let continuation: AsyncStream<Int>.Continuation

    init(of symbol: String, _ continuation: AsyncStream<Int>.Continuation) {
        self.symbol = symbol
        self.continuation = continuation
    }

    func quoteDidChange(symbol: String, cents: Int) {
        guard symbol == self.symbol else { return }  // `filter`, in the forwarder
        if case .dropped(let older) = continuation.yield(cents) {
            print("skipped", older, "cents: the loop was busy")  // a drop is seen here, not lost in silence
        }
    }

    func quotesWillReload() async {}
}

@MainActor
func showPrices(of symbol: String, from service: QuoteService) async {
    // Added before `events` returns; the newest price waits, and an older one not read in time is dropped.
    let prices = service.observers.events(bufferingPolicy: .bufferingNewest(1)) { Prices(of: symbol, $0) }
    for await dollars in prices.map({ Double($0) / 100 }) {  // `map`, from the standard library
        print(symbol, dollars)
    }
}
