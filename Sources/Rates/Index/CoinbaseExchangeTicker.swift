import Base
import HTTPClient
import Upstream

/// Coinbase Exchange's ticker: `GET {base}/products/BTC-{USD|EUR|GBP}/ticker` →
/// `{"ask","bid","volume","trade_id","price":"43250.12","size","time":"2024-01-05T12:00:00.123456Z"}`.
/// The same provider (id, base URL, budget) as the history candles: one exchange, one budget.
public struct CoinbaseExchangeTicker: IndexConstituent, DescribedProvider {
    public static let descriptor = CoinbaseExchangeHistoryProvider.descriptor
    public static let kind = IndexConstituentKind(descriptor) { baseURL, _ in CoinbaseExchangeTicker(baseURL: baseURL) }

    public var baseURL: String

    public init(baseURL: String = CoinbaseExchangeTicker.descriptor.defaultBaseURL) {
        self.baseURL = baseURL
    }

    public func url(_ currency: String) -> String {
        BaseURL.trimmed(baseURL) + "/products/BTC-\(currency)/ticker"
    }

    public func decode(_ json: JSONValue, currency: String) throws(UpstreamError) -> IndexQuote {
        let d = UpstreamDecoding(provider: name)
        let root = try d.root(json)
        let price = try d.price(root["price"], "price")
        let timeText = try d.string(root["time"], "time")
        guard let time = TimestampText.parseISO8601(timeText) else { throw d.invalid("time", "is not an ISO 8601 time") }
        return IndexQuote(price: price, time: time)
    }
}
