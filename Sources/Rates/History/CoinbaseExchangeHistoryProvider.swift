import Base
import HTTPClient
import Upstream

/// Coinbase Exchange's daily candles: `GET {base}/products/BTC-{USD|EUR|GBP}/candles?granularity=86400&start=ISO8601&end=ISO8601`
/// (at most 300 candles per request; more is a 400) → `[[time, low, high, open, close, volume], …]`,
/// newest first, numbers. Its data starts on 2015-07-20.
public struct CoinbaseExchangeHistoryProvider: HistoryExchangeProvider, DescribedProvider {
    /// Coinbase Exchange's public endpoints allow 10 requests a second per IP.
    public static let descriptor = ProviderDescriptor(
        id: "coinbase-exchange", defaultBaseURL: "https://api.exchange.coinbase.com",
        defaultBudget: ProviderBudget(maxRequestsPerSecond: 10))
    public static let kind = HistoryProviderKind(descriptor) { baseURL, _ in CoinbaseExchangeHistoryProvider(baseURL: baseURL) }

    /// 2015-07-20.
    public static let earliest: Int64 = 16_636
    public let plan = HistoryBlockPlan(size: 300, earliest: CoinbaseExchangeHistoryProvider.earliest)
    public let currencies = ["USD", "EUR", "GBP"]
    public var baseURL: String

    public init(baseURL: String = CoinbaseExchangeHistoryProvider.descriptor.defaultBaseURL) {
        self.baseURL = baseURL
    }

    public func url(_ currency: String, days: ClosedRange<Int64>) -> String {
        BaseURL.trimmed(baseURL) + "/products/BTC-\(currency)/candles?granularity=86400"
            + "&start=\(TimestampText.iso8601UTC(HistoryDay.startSeconds(days.lowerBound)))"
            + "&end=\(TimestampText.iso8601UTC(HistoryDay.startSeconds(days.upperBound)))"
    }

    public func closes(_ currency: String, days: ClosedRange<Int64>, client: any HTTPClient) async throws -> [Int64: Int64] {
        let json = try await ProviderFetch.json(url(currency, days: days), provider: name, client: client)
        return try decode(json, days: days)
    }

    /// Decodes a parsed body; public for tests and fuzzing.
    public func decode(_ json: JSONValue, days: ClosedRange<Int64>) throws(UpstreamError) -> [Int64: Int64] {
        let d = UpstreamDecoding(provider: name)
        guard case let .array(candles) = json else {
            throw UpstreamError(.malformed, provider: name, detail: "response is \(json.kindDescription), not a JSON array of candles")
        }
        var closes: [Int64: Int64] = [:]
        for (n, candle) in candles.enumerated() {
            let path = "[\(n)]"
            guard case let .array(fields) = candle else { throw d.wrongType(path, expected: "an array", got: candle) }
            guard fields.count >= 5 else { throw d.invalid(path, "has \(fields.count) fields, not [time, low, high, open, close, volume]") }
            let day = try d.candleDay(fields[0], "\(path)[0] (time)", asked: days)
            let close = try d.fixed(fields[4], "\(path)[4] (close)")
            if let day { closes[day] = close }
        }
        return closes
    }
}
