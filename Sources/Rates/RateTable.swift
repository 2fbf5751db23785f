import Base
import Cache
import HTTPClient
import Foundation

/// One upstream snapshot of Bitcoin's price in every currency the provider quotes.
///
/// BTC is the base: `rates["USD"] == 91234.56` means one bitcoin buys 91,234.56 US dollars.
/// Every other base is derived from this one table (see `CrossRate`), so a single cached
/// value answers every rates question and one upstream call refreshes them all.
public struct RateTable: CacheValue, Equatable {
    /// Code → units of that currency one BTC buys. Always contains `BTC` = 1; only positive
    /// rates of three-letter codes are kept (`RateTableBuilder` enforces it).
    public let rates: [String: Decimal]
    /// Unix seconds of the quote: the upstream's timestamp, or the fetch time when it has none.
    public let updated: Int64
    /// The provider that produced the table (`coinbase`, `coingecko`, `coindesk`).
    public let source: String
    /// Names and symbols the upstream supplied (CoinDesk's `description` / `symbol`), used for
    /// codes the built-in ISO 4217 table lacks.
    public let upstreamCurrencies: [String: Currency]
    /// `rates`' keys in ascending order (of their UTF-8 bytes, the same as alphabetical for
    /// codes): the order every listing is rendered in, and the validator's.
    public let codes: [String]
    /// Currencies the provider listed with an unusable value (zero, negative, not a number…),
    /// each with the error naming the provider and the field. They are not in `rates`; a
    /// request naming one is a 502, not a 404 (see `RateTableBuilder`).
    public let unavailable: [String: UpstreamError]

    public let cacheValidator: String
    public let cacheCost: Int

    public init(rates: [String: Decimal], updated: Int64, source: String, upstreamCurrencies: [String: Currency] = [:],
                unavailable: [String: UpstreamError] = [:]) {
        var rates = rates
        rates["BTC"] = 1
        self.rates = rates
        self.updated = updated
        self.source = source
        self.upstreamCurrencies = upstreamCurrencies
        self.unavailable = unavailable.filter { rates[$0.key] == nil }
        let sortedRates = rates.sortedByUTF8Key()
        self.codes = sortedRates.map(\.key)
        var hasher = ContentDigest()
        hasher.combine(source)
        hasher.combine(String(updated))
        for (code, rate) in sortedRates {
            hasher.combine(code)
            hasher.combine(rate.description)
        }
        for (code, c) in upstreamCurrencies.sortedByUTF8Key() {
            hasher.combine(code)
            hasher.combine(c.name)
            hasher.combine(c.symbol ?? "")
        }
        for (code, error) in self.unavailable.sortedByUTF8Key() {
            hasher.combine(code)
            hasher.combine(error.detail)
        }
        self.cacheValidator = hasher.hex
        self.cacheCost = 128 + codes.count * 64 + upstreamCurrencies.count * 96 + self.unavailable.count * 96
    }

    /// Units of `code` one BTC buys, if the table quotes it.
    public func rate(_ code: String) -> Decimal? { rates[code] }
}
