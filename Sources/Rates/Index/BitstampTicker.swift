import Base
import HTTPClient
import Upstream

/// Bitstamp's ticker: `GET {base}/api/v2/ticker/btc{usd|eur|gbp}/` →
/// `{"timestamp":"1704456000","open","high","low","last":"43251.00","volume","vwap","bid","ask"}`.
/// The same provider (id, base URL, budget) as the history candles: one exchange, one budget.
public struct BitstampTicker: IndexConstituent, DescribedProvider {
    public static let descriptor = BitstampHistoryProvider.descriptor
    public static let kind = IndexConstituentKind(descriptor) { baseURL, _ in BitstampTicker(baseURL: baseURL) }

    public var baseURL: String

    public init(baseURL: String = BitstampTicker.descriptor.defaultBaseURL) {
        self.baseURL = baseURL
    }

    public func url(_ currency: String) -> String {
        BaseURL.trimmed(baseURL) + "/api/v2/ticker/btc\(currency.lowercased())/"
    }

    public func decode(_ json: JSONValue, currency: String) throws(UpstreamError) -> IndexQuote {
        let d = UpstreamDecoding(provider: name)
        let root = try d.root(json)
        return IndexQuote(price: try d.price(root["last"], "last"), time: try d.unixTime(root["timestamp"], "timestamp"))
    }
}
