import Base
import HTTPClient
import Upstream

/// Coinbase's public exchange rates: `GET {base}/v2/exchange-rates?currency=BTC` →
/// `{"data":{"currency":"BTC","rates":{"USD":"91234.56",…}}}`. Rates are decimal strings,
/// so they are exact; the document has no timestamp, so `updated` is the fetch time.
public struct CoinbaseProvider: JSONRatesProvider, DescribedProvider {
    /// Coinbase App API: 10,000 requests an hour → 2.7 a second.
    public static let descriptor = ProviderDescriptor(
        id: "coinbase", defaultBaseURL: "https://api.coinbase.com",
        defaultBudget: ProviderBudget(maxRequestsPerSecond: 2.7))
    public static let kind = RatesProviderKind(descriptor) { CoinbaseProvider(baseURL: $0, now: $1) }

    public var baseURL: String
    public var now: WallClock

    public init(baseURL: String = CoinbaseProvider.descriptor.defaultBaseURL, now: @escaping WallClock = WallClocks.system) {
        self.baseURL = baseURL
        self.now = now
    }

    public var url: String { BaseURL.trimmed(baseURL) + "/v2/exchange-rates?currency=BTC" }

    public func decode(_ json: JSONValue, fetchedAt: Int64) throws(UpstreamError) -> RateTable {
        let d = UpstreamDecoding(provider: name)
        let root = try d.root(json)
        let data = try d.object(root["data"], "data")
        if let currency = data["currency"] {
            guard case let .string(code) = currency else { throw d.wrongType("data.currency", expected: "a string", got: currency) }
            guard CurrencyCode.normalize(code) == "BTC" else { throw d.invalid("data.currency", "is \"\(code)\", expected \"BTC\"") }
        }
        let rates = try d.object(data["rates"], "data.rates")
        var builder = RateTableBuilder()
        builder.add(rates: rates, at: "data.rates", decoding: d, expected: "a decimal string", unparsable: "is not a decimal number") {
            switch $0 {
            case let .string(text), let .number(text): text
            default: nil
            }
        }
        return try builder.build(updated: fetchedAt, source: name, emptyPath: "data.rates")
    }
}
