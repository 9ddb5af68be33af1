// snippet.with: MigratingFromCombineThreads.swift
// snippet.hide
import Multicast

// snippet.show
/// Was: `quotes.filter { $0.symbol == "SWIFT" }.map(\.cents).removeDuplicates().sink { ... }`.
@MainActor
final class SwiftPriceLabel: QuoteObserver {
    private(set) var text = ""
    private var last: Int?

    func quoteDidChange(symbol: String, cents: Int) {
        guard symbol == "SWIFT", cents != last else { return }  // `filter` and `removeDuplicates`
        last = cents
        text = "SWIFT \(Double(cents) / 100)"  // `map`
    }

    func quotesWillReload() async { last = nil }
}
