import Base
import Foundation
import Rates
import Synchronization

/// The index's five exchange tickers on a `StubUpstream`, in their exact answer shapes, with
/// controls to make one exchange misprint (its price × a factor) or go stale (its ticker time
/// pushed into the past). Failing, stalling or a 429 are the stub's own faults on the
/// exchange's path (`path(_:)`): `stub.setFault(.status(503), for: IndexStub.path("kraken"))`.
///
/// Prices: `basePrices` plus each exchange's `offsets` (cents apart, so a test can tell which
/// prices made the index); ticker times follow `now`.
public final class IndexStub: Sendable {
    /// The constituents, in `rates.index.providers` order.
    public static let providers = ["coinbase-exchange", "bitstamp", "kraken", "gemini", "bitfinex"]
    public static let basePrices: [String: Decimal] = ["USD": 43250, "EUR": 39500, "GBP": 34000]
    /// Added to the base price per exchange: sorted, gemini < coinbase-exchange < bitfinex < kraken < bitstamp.
    public static let offsets: [String: Decimal] = [
        "coinbase-exchange": Decimal(12) / 100, "bitstamp": 1, "kraken": Decimal(9) / 10,
        "gemini": Decimal(-5) / 10, "bitfinex": Decimal(4) / 10,
    ]

    private struct State {
        var factors: [String: Decimal] = [:]
        var ages: [String: Int64] = [:]
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Int64

    /// - Parameter now: Unix seconds the tickers are stamped with (the app's wall clock).
    public init(now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.now = now
    }

    /// The path of `provider`'s ticker in `currency` (kraken's carries the pair in its query:
    /// one path for all three), for `StubUpstream.setFault(_:for:)` and `requestCount(for:)`.
    public static func path(_ provider: String, _ currency: String = "USD") -> String {
        switch provider {
        case "coinbase-exchange": "/products/BTC-\(currency)/ticker"
        case "bitstamp": "/api/v2/ticker/btc\(currency.lowercased())/"
        case "kraken": "/0/public/Ticker"
        case "gemini": "/v1/pubticker/btc\(currency.lowercased())"
        default: "/v2/ticker/tBTC\(currency)"
        }
    }

    /// Every path of `provider` (three currencies; one for kraken).
    public static func paths(_ provider: String) -> [String] {
        Array(Set(IndexReport.currencies.map { path(provider, $0) })).sorted()
    }

    /// `provider` answers its price × `factor` (nil: its true price again).
    public func misprint(_ provider: String, factor: Decimal?) {
        state.withLock { $0.factors[provider] = factor }
    }

    /// `provider`'s ticker time is `seconds` in the past (nil: now).
    public func stale(_ provider: String, seconds: Int64?) {
        state.withLock { $0.ages[provider] = seconds }
    }

    /// The price `provider` answers now in `currency`.
    public func price(_ provider: String, _ currency: String) -> Decimal {
        let factor = state.withLock { $0.factors[provider] } ?? 1
        return ((Self.basePrices[currency] ?? 0) + (Self.offsets[provider] ?? 0)) * factor
    }

    /// The index the rule gives with every exchange answering its true price: the median.
    public static func trueIndex(_ currency: String, without excluded: Set<String> = []) -> Decimal {
        let prices = providers.filter { !excluded.contains($0) }.map { (basePrices[currency] ?? 0) + (offsets[$0] ?? 0) }
        return IndexRule.median(prices) ?? 0
    }

    private func time(_ provider: String) -> Int64 {
        now() - (state.withLock { $0.ages[provider] } ?? 0)
    }

    /// Routes all five on `stub` (configure their base URLs to `stub.baseURL`).
    public func install(on stub: StubUpstream) {
        for currency in IndexReport.currencies {
            stub.route(Self.path("coinbase-exchange", currency)) { [self] _ in
                let p = price("coinbase-exchange", currency), t = TimestampText.iso8601UTC(time("coinbase-exchange"))
                let iso = t.hasSuffix("Z") ? String(t.dropLast()) + ".123456Z" : t
                return .json(#"{"ask":"\#(p + 1)","bid":"\#(p - 1)","volume":"1234.5","trade_id":86326522,"price":"\#(p)","size":"0.0015","time":"\#(iso)"}"#)
            }
            stub.route(Self.path("bitstamp", currency)) { [self] _ in
                let p = price("bitstamp", currency)
                return .json(#"{"timestamp":"\#(time("bitstamp"))","open":"\#(p)","high":"\#(p + 100)","low":"\#(p - 100)","last":"\#(p)","volume":"1500.1","vwap":"\#(p)","bid":"\#(p - 1)","ask":"\#(p + 1)","side":"0","open_24":"\#(p)","percent_change_24":"0.10"}"#)
            }
            stub.route(Self.path("gemini", currency)) { [self] _ in
                let p = price("gemini", currency)
                return .json(#"{"bid":"\#(p - 1)","ask":"\#(p + 1)","volume":{"BTC":"1000.5","\#(currency)":"43250000.5","timestamp":\#(time("gemini") * 1000)},"last":"\#(p)"}"#)
            }
            stub.route(Self.path("bitfinex", currency)) { [self] _ in
                let p = price("bitfinex", currency)
                return .json("[\(p - 1),12.5,\(p + 1),10.1,120,0.0028,\(p),5000.7,\(p + 200),\(p - 200)]")
            }
        }
        stub.route(Self.path("kraken")) { [self] request in
            let pair = (request.query ?? "").split(separator: "&").first { $0.hasPrefix("pair=XBT") }.map { $0.dropFirst(8) } ?? ""
            guard IndexReport.currencies.contains(String(pair)) else {
                return .json(#"{"error":["EQuery:Unknown asset pair"]}"#)
            }
            let p = price("kraken", String(pair))
            return .json(#"{"error":[],"result":{"XXBTZ\#(pair)":{"a":["\#(p + 1)","1","1.000"],"b":["\#(p - 1)","2","2.000"],"c":["\#(p)","0.00100000"],"v":["100.1","2000.2"],"p":["\#(p)","\#(p)"],"t":[1000,20000],"l":["\#(p - 100)","\#(p - 200)"],"h":["\#(p + 100)","\#(p + 200)"],"o":"\#(p)"}}}"#)
        }
    }
}
