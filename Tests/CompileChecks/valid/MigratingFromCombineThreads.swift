import Multicast

@MainActor
protocol QuoteObserver: AnyObject, Sendable {  // heard on the main actor, posted from anywhere
    func quoteDidChange(symbol: String, cents: Int)
    func quotesWillReload() async
}

actor QuoteService {
    nonisolated let observers = MulticastDelegate<any QuoteObserver>()  // Sendable, since its delegates are

    func receive(symbol: String, cents: Int) async {
        await MainActor.run {  // one hop for every observer, where each used `receive(on:)`
            observers.call { $0.quoteDidChange(symbol: symbol, cents: cents) }
        }
    }

    func reload() async {
        await observers.inTurn.call { await $0.quotesWillReload() }  // on the main actor, one after another
    }
}

@MainActor
final class QuoteScreen: QuoteObserver {
    private(set) var prices: [String: Int] = [:]

    init(service: QuoteService) {
        service.observers.add(self)  // no `await`: the multicast is Sendable
    }

    func quoteDidChange(symbol: String, cents: Int) { prices[symbol] = cents }
    func quotesWillReload() async { prices = [:] }
}
