import Base
import HTTPClient
import Upstream

/// Bitstamp's daily OHLC candles: `GET {base}/api/v2/ohlc/btc{usd|eur|gbp}/?step=86400&limit=N&start=UNIX&end=UNIX`
/// (N ≤ 1000) → `{"data":{"pair":"BTC/USD","ohlc":[{"timestamp":"1704067200","close":"42280.23",…}]}}`,
/// ascending, values as decimal strings. Bitstamp's data starts on 2011-08-18.
public struct BitstampHistoryProvider: HistoryExchangeProvider, DescribedProvider {
    /// Bitstamp allows 8,000 requests per 10 minutes per IP → 13 a second.
    public static let descriptor = ProviderDescriptor(
        id: "bitstamp", defaultBaseURL: "https://www.bitstamp.net",
        defaultBudget: ProviderBudget(maxRequestsPerSecond: 13))
    public static let kind = HistoryProviderKind(descriptor) { baseURL, _ in BitstampHistoryProvider(baseURL: baseURL) }

    /// 2011-08-18.
    public static let earliest: Int64 = 15_204
    public let plan = HistoryBlockPlan(size: 1000, earliest: BitstampHistoryProvider.earliest)
    public let currencies = ["USD", "EUR", "GBP"]
    public var baseURL: String

    public init(baseURL: String = BitstampHistoryProvider.descriptor.defaultBaseURL) {
        self.baseURL = baseURL
    }

    public func url(_ currency: String, days: ClosedRange<Int64>) -> String {
        let count = days.upperBound - days.lowerBound + 1
        return BaseURL.trimmed(baseURL) + "/api/v2/ohlc/btc\(currency.lowercased())/?step=86400&limit=\(count)"
            + "&start=\(HistoryDay.startSeconds(days.lowerBound))&end=\(HistoryDay.startSeconds(days.upperBound))"
    }

    public func closes(_ currency: String, days: ClosedRange<Int64>, client: any HTTPClient) async throws -> [Int64: Int64] {
        let json = try await ProviderFetch.json(url(currency, days: days), provider: name, client: client)
        return try decode(json, currency: currency, days: days)
    }

    /// Decodes a parsed body; public for tests and fuzzing.
    public func decode(_ json: JSONValue, currency: String, days: ClosedRange<Int64>) throws(UpstreamError) -> [Int64: Int64] {
        let d = UpstreamDecoding(provider: name)
        let data = try d.object(try d.root(json)["data"], "data")
        if let pair = data["pair"] {
            guard case let .string(text) = pair else { throw d.wrongType("data.pair", expected: "a string", got: pair) }
            guard text == "BTC/\(currency)" else { throw d.invalid("data.pair", "is \"\(text.prefix(16))\", not BTC/\(currency)") }
        }
        guard let ohlc = data["ohlc"] else { throw d.missing("data.ohlc") }
        guard case let .array(candles) = ohlc else { throw d.wrongType("data.ohlc", expected: "an array", got: ohlc) }
        var closes: [Int64: Int64] = [:]
        for (n, candle) in candles.enumerated() {
            let path = "data.ohlc[\(n)]"
            let fields = try d.object(candle, path)
            let day = try d.candleDay(fields["timestamp"], "\(path).timestamp", asked: days)
            let close = try d.fixed(fields["close"], "\(path).close")
            if let day { closes[day] = close }
        }
        return closes
    }
}
