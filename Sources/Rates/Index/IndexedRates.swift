import Base
import Cache
import Foundation

/// The rates namespace's one cached value: the table every rates endpoint serves, and the
/// index report it was built from (nil when the index is off). One entry, one refresh: the
/// chain's table and every constituent's tickers are fetched together under one single flight,
/// so a cached hit costs nothing the index did not already pay at refresh time.
///
/// One reference wide: every field lives in one immutable object (`Parts`), so a cached hit
/// that copies the value out of the cache retains once and releases once. Stored inline, the
/// table's and the report's arrays, dictionaries and strings made a copy retain eleven
/// references and its destruction release them (~700 instructions per hit, docs/evidence.md).
public struct IndexedRates: CacheValue, Equatable {
    /// The fields, computed once when the value is made.
    private final class Parts: Sendable {
        let table: RateTable
        let index: IndexReport?
        let disclaimerConstituents: [String]
        let indexBody: [UInt8]?
        let cacheValidator: String
        let cacheCost: Int

        init(table: RateTable, index: IndexReport?) {
            self.table = table
            self.index = index
            self.disclaimerConstituents = table.source == IndexedRates.indexSource ? index?.usedProviders ?? [] : []
            let indexBody = index.map(IndexRenderer.render)
            self.indexBody = indexBody
            var digest = ContentDigest()
            digest.combine(table.cacheValidator)
            index?.combine(into: &digest)
            self.cacheValidator = index == nil ? table.cacheValidator : digest.hex
            self.cacheCost = table.cacheCost + (index?.cost ?? 0) + (indexBody?.count ?? 0)
        }
    }

    private let parts: Parts

    /// The served table: the chain's, with USD/EUR/GBP replaced by their index and every other
    /// currency crossed from the USD index, `source` `index` when the USD index served.
    public var table: RateTable { parts.table }
    public var index: IndexReport? { parts.index }
    /// The exchanges the CoinDesk disclaimer names: the index's used constituents when the
    /// index anchored the table, else none (the chain provider is named). Worked out once per
    /// cached value, not per hit: walking the report's fifteen lines on every request made a
    /// cached hit cost ~4,900 instructions more with the index on (docs/evidence.md).
    public var disclaimerConstituents: [String] { parts.disclaimerConstituents }
    /// The `GET /v1/index` body (nil when the index is off), rendered once per cached value:
    /// rendering the report's decimals and times costs ~1 M instructions, which every
    /// `/v1/index` hit paid before (docs/evidence.md).
    public var indexBody: [UInt8]? { parts.indexBody }
    public var cacheValidator: String { parts.cacheValidator }
    public var cacheCost: Int { parts.cacheCost }

    public init(table: RateTable, index: IndexReport?) {
        parts = Parts(table: table, index: index)
    }

    /// Equal when the table and the report are (everything else is derived from them).
    public static func == (lhs: IndexedRates, rhs: IndexedRates) -> Bool {
        lhs.parts === rhs.parts || (lhs.table == rhs.table && lhs.index == rhs.index)
    }

    /// The served source name when the index anchored the table.
    public static let indexSource = "index"

    /// The value served from the chain's table and the index (see `IndexedRates` and
    /// docs/rates.md "The index"): a currency whose index reached its quorum takes it; any
    /// other currency X becomes USD index × (chain X / chain USD), rounded to
    /// `DecimalText.derivedSignificantDigits`; a currency whose index did not reach its quorum
    /// keeps the chain's rate and the report names the chain provider as its `fallback`.
    public static func compose(chain: RateTable, index: IndexReport?) -> IndexedRates {
        guard var report = index else { return IndexedRates(table: chain, index: nil) }
        report.crosses = chain.source
        for n in report.currencies.indices where report.currencies[n].value == nil {
            report.currencies[n].fallback = chain.source
        }
        var rates = chain.rates
        for currency in report.currencies {
            if let value = currency.value { rates[currency.currency] = value }
        }
        let usdIndex = report.value("USD")
        if let usdIndex, let chainUSD = chain.rate("USD") {
            for (code, rate) in chain.rates where code != "BTC" && !IndexReport.currencies.contains(code) {
                let crossed = DecimalText.rounded(usdIndex * rate / chainUSD, significantDigits: DecimalText.derivedSignificantDigits)
                if RateTableBuilder.usableRates.contains(crossed) { rates[code] = crossed }
            }
        }
        let served = usdIndex != nil || report.currencies.contains { $0.value != nil }
        let table = RateTable(rates: rates, updated: served ? report.updated : chain.updated,
                              source: usdIndex != nil ? indexSource : chain.source,
                              upstreamCurrencies: chain.upstreamCurrencies, unavailable: chain.unavailable)
        return IndexedRates(table: table, index: report)
    }
}
