import Multicast

nonisolated protocol PriceFeed: AnyObject, Sendable {
    func priceDidChange(symbol: String, cents: Int)
}

nonisolated enum Markets {
    static let prices = MulticastDelegate<any PriceFeed>()  // called from the network's threads
}

nonisolated final class Prices: PriceFeed {
    let continuation: AsyncStream<Int>.Continuation
    let symbol: String

    init(of symbol: String, _ continuation: AsyncStream<Int>.Continuation) {
        self.symbol = symbol
        self.continuation = continuation
    }

    func priceDidChange(symbol: String, cents: Int) {
        if symbol == self.symbol { continuation.yield(cents) }
    }
}

nonisolated func watch(_ symbol: String) async {
    let prices = Markets.prices.events(bufferingPolicy: .bufferingNewest(1)) { Prices(of: symbol, $0) }
    for await cents in prices {  // the newest price; older ones that were not read in time are dropped
        print(symbol, cents)
    }
}
