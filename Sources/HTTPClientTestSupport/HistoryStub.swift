import Base
import Rates

/// The history upstreams (bitstamp, coinbase-exchange, frankfurter) on a `StubUpstream`, speaking
/// their exact request and answer shapes over a deterministic series, so tests can check every
/// value almanac serves against `HistoryStubSeries` and count upstream requests per provider.
///
/// Each emulates its upstream's limits: bitstamp refuses `limit` over 1000, coinbase-exchange
/// answers 400 for more than 300 candles, frankfurter answers business days only.
public enum HistoryStub {
    public static let bitstampPrefix = "/api/v2/ohlc/"
    public static let coinbaseExchangePrefix = "/products/"
    public static let frankfurterPrefix = "/v1/"

    /// Routes all three on `stub` (configure every history base URL to `stub.baseURL`).
    /// `closedThrough` emulates an exchange that has not closed a day yet: candles after the
    /// day it returns are left out.
    public static func script(_ stub: StubUpstream, closedThrough: (@Sendable () -> Int64)? = nil) {
        stub.route(prefix: bitstampPrefix) { bitstamp($0, closedThrough: closedThrough?() ?? .max) }
        stub.route(prefix: coinbaseExchangePrefix) { coinbaseExchange($0, closedThrough: closedThrough?() ?? .max) }
        stub.route(prefix: frankfurterPrefix) { frankfurter($0) }
    }

    static func parameters(_ request: StubRequest) -> [String: String] {
        var out: [String: String] = [:]
        for item in (request.query ?? "").split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            out[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
        }
        return out
    }

    static func problem(_ message: String) -> StubResponse { .json(#"{"message":"\#(message)"}"#, status: 400) }

    /// `GET /api/v2/ohlc/btcusd/?step=86400&limit=N&start=UNIX&end=UNIX`
    public static func bitstamp(_ request: StubRequest, closedThrough: Int64 = .max) -> StubResponse {
        let p = parameters(request)
        let pair = request.path.dropFirst(bitstampPrefix.count).replacingOccurrences(of: "/", with: "")
        guard pair.hasPrefix("btc"), pair.count == 6, let currency = CurrencyCode.normalize(pair.dropFirst(3)) else {
            return .json(#"{"errors":[{"field":"pair","message":"Invalid pair"}]}"#, status: 404)
        }
        guard p["step"] == "86400", let limit = p["limit"].flatMap({ Int($0) }), (1...1000).contains(limit),
              let start = p["start"].flatMap({ Int64($0) }), let end = p["end"].flatMap({ Int64($0) }) else {
            return problem("bad step, limit, start or end")
        }
        var candles: [String] = []
        var day = max(HistoryDay.containing(unixSeconds: start), HistoryStubSeries.bitstampFirst)
        while day <= min(HistoryDay.containing(unixSeconds: end), closedThrough) && candles.count < limit {
            let close = HistoryStubSeries.closeText("bitstamp", currency, day: day)
            candles.append(#"{"timestamp":"\#(day * 86_400)","open":"\#(close)","high":"\#(close)","low":"\#(close)","close":"\#(close)","volume":"12.5"}"#)
            day += 1
        }
        return .json(#"{"data":{"pair":"BTC/\#(currency)","ohlc":[\#(candles.joined(separator: ","))]}}"#)
    }

    /// `GET /products/BTC-USD/candles?granularity=86400&start=ISO&end=ISO`
    public static func coinbaseExchange(_ request: StubRequest, closedThrough: Int64 = .max) -> StubResponse {
        let p = parameters(request)
        let parts = request.path.split(separator: "/")
        guard parts.count == 3, parts[2] == "candles", parts[1].hasPrefix("BTC-"),
              let currency = CurrencyCode.normalize(parts[1].dropFirst(4)) else {
            return .json(#"{"message":"NotFound"}"#, status: 404)
        }
        guard p["granularity"] == "86400", let start = p["start"].flatMap({ TimestampText.parseISO8601($0) }),
              let end = p["end"].flatMap({ TimestampText.parseISO8601($0) }), end >= start else {
            return problem("invalid start, end or granularity")
        }
        let first = HistoryDay.containing(unixSeconds: start), last = HistoryDay.containing(unixSeconds: end)
        guard last - first + 1 <= 300 else { return problem("granularity too small for the requested time range") }
        var candles: [String] = []
        var day = min(last, closedThrough)
        while day >= max(first, HistoryStubSeries.coinbaseExchangeFirst) {
            let close = HistoryStubSeries.closeText("coinbase-exchange", currency, day: day)
            candles.append("[\(day * 86_400),\(close),\(close),\(close),\(close),3.25]")
            day -= 1
        }
        return .json("[" + candles.joined(separator: ",") + "]")
    }

    /// `GET /v1/2024-01-01..2024-12-31?base=USD&symbols=JPY,CHF`
    static func frankfurter(_ request: StubRequest) -> StubResponse {
        let p = parameters(request)
        let range = request.path.dropFirst(frankfurterPrefix.count).split(separator: ".", omittingEmptySubsequences: true)
        guard range.count == 2, let first = HistoryDay.parse(range[0]), let last = HistoryDay.parse(range[1]), first <= last else {
            return .json(#"{"message":"not found"}"#, status: 404)
        }
        guard p["base"] == "USD", let symbols = p["symbols"]?.split(separator: ","), !symbols.isEmpty else {
            return .json(#"{"message":"bad base or symbols"}"#, status: 422)
        }
        var days: [String] = []
        var day = first
        while day <= last {
            let rates = symbols.compactMap { code in HistoryStubSeries.fxText(String(code), day: day).map { #""\#(code)":\#($0)"# } }
            if !rates.isEmpty { days.append(#""\#(HistoryDay.text(day))":{\#(rates.joined(separator: ","))}"#) }
            day += 1
        }
        return .json(#"{"amount":1.0,"base":"USD","start_date":"\#(HistoryDay.text(first))","end_date":"\#(HistoryDay.text(last))","rates":{\#(days.joined(separator: ","))}}"#)
    }
}

/// The stub's deterministic series: every value a test expects is computed here.
public enum HistoryStubSeries {
    public static let bitstampFirst = BitstampHistoryProvider.earliest
    public static let coinbaseExchangeFirst = CoinbaseExchangeHistoryProvider.earliest

    /// A close in cents: different per day, currency and provider (coinbase-exchange is 50 cents
    /// above bitstamp), so a test can tell which provider a value came from.
    public static func closeCents(_ provider: String, _ currency: String, day: Int64) -> Int64 {
        let offset: Int64 = currency == "EUR" ? 1_300 : currency == "GBP" ? 2_700 : 0
        return 1_000_000 + (day * 7_919) % 4_000_000 + offset + (provider == "coinbase-exchange" ? 50 : 0)
    }

    /// `12345.67`
    public static func closeText(_ provider: String, _ currency: String, day: Int64) -> String {
        let cents = closeCents(provider, currency, day: day)
        let fraction = cents % 100
        return "\(cents / 100)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    }

    /// The USD→`code` rate on `day` as frankfurter writes it, in ten-thousandths; nil on weekends.
    public static func fxTenThousandths(_ code: String, day: Int64) -> Int64? {
        let weekday = CivilTime.weekday(days: day)
        guard weekday != 0 && weekday != 6 else { return nil }
        let index = Int64(FrankfurterProvider.currencies.firstIndex(of: code) ?? 0)
        return 8_000 + index * 3_517 + (day % 17) * 13
    }

    public static func fxText(_ code: String, day: Int64) -> String? {
        guard let v = fxTenThousandths(code, day: day) else { return nil }
        let fraction = String(v % 10_000)
        return "\(v / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
