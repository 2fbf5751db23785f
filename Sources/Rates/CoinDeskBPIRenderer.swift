import Base
import Foundation

/// Speaks the retired CoinDesk Bitcoin Price Index v1 format, so clients written for
/// `api.coindesk.com/v1/bpi/…` keep working by changing only their base URL.
///
/// CoinDesk answered in two shapes, and clients read both by position as well as by name:
/// - `currentprice.json`: `time`, `disclaimer`, `chartName: "Bitcoin"`, `bpi` with USD, GBP,
///   EUR, each `{"code","symbol","rate","description","rate_float"}` (HTML-entity `symbol`);
/// - `currentprice/{CODE}.json`: `time`, `disclaimer`, `bpi` (no `chartName`) with USD, then
///   CODE (USD alone for USD), each `{"code","rate","description","rate_float"}`: no
///   `symbol`, so `rate` is the second field (the coindeskr R package reads it there).
///
/// `time` is `updated` (`Sep 28, 2015 01:23:00 UTC`), `updatedISO`
/// (`2015-09-28T01:23:00+00:00`) and `updateduk` (UK civil time, BST or GMT); `rate` is
/// `"91,234.5600"` (thousands separators, 4 decimals) and `rate_float` the same value rounded
/// to 4 decimals, as a JSON number. XBT is bitcoin (`CoinDeskCodes`).
public enum CoinDeskBPIRenderer {
    /// The codes of `/v1/bpi/currentprice.json`, in CoinDesk's order.
    public static let headlineCodes = ["USD", "GBP", "EUR"]
    /// Decimals of `rate` and `rate_float`.
    public static let decimals = 4

    /// Names where the numbers came from: the exchanges whose prices made the index (when
    /// `constituents` is not empty), else the chain provider's exchange rates.
    public static func disclaimer(source: String, constituents: [String] = []) -> String {
        let origin = constituents.isEmpty ? "\(source) exchange rates"
            : "an index of \(constituents.joined(separator: ", ")) exchange prices (the median after dropping outliers)"
        return "This data was produced by almanac from \(origin); it is not the CoinDesk Bitcoin Price Index, which was retired in 2025."
    }

    /// - Parameter constituents: the index's constituents used, named by the disclaimer.
    public static func render(_ query: RatesQuery, table: RateTable, constituents: [String] = []) throws(RatesInputError) -> [UInt8] {
        switch query {
        case .bpiCurrentPrice:
            return document(table, codes: headlineCodes.filter { table.rate($0) != nil }, shape: .headline, constituents: constituents)
        case let .bpiCurrentPriceIn(code):
            try RatesRenderer.requireKnown([CoinDeskCodes.rateCode(code)], in: table)
            let codes = (table.rate("USD") != nil ? ["USD"] : []) + (code == "USD" ? [] : [code])
            return document(table, codes: codes, shape: .perCurrency, constituents: constituents)
        case .bpiSupportedCurrencies:
            return supportedCurrencies(table)
        default:
            return try RatesRenderer.render(query, table: table)
        }
    }

    /// Which of CoinDesk's two `currentprice` shapes to write.
    enum Shape {
        /// `currentprice.json`: with `chartName` and each entry's `symbol`.
        case headline
        /// `currentprice/{CODE}.json`: neither.
        case perCurrency
    }

    static func document(_ table: RateTable, codes: [String], shape: Shape, constituents: [String] = []) -> [UInt8] {
        var w = JSONWriter(capacity: 700)
        w.raw("{")
        w.key("time", first: true)
        w.raw("{")
        w.key("updated", first: true); w.string(TimestampText.coinDeskUpdated(table.updated))
        w.key("updatedISO"); w.string(TimestampText.coinDeskISO(table.updated))
        w.key("updateduk"); w.string(TimestampText.coinDeskUpdatedUK(table.updated))
        w.raw("}")
        w.key("disclaimer"); w.string(disclaimer(source: table.source, constituents: constituents))
        if shape == .headline { w.key("chartName"); w.string("Bitcoin") }
        w.key("bpi"); w.raw("{")
        // Codes the table does not quote are skipped (callers already checked; never a trap).
        let quotedCodes = codes.compactMap { code in table.rate(CoinDeskCodes.rateCode(code)).map { (code, $0) } }
        for (n, (code, quoted)) in quotedCodes.enumerated() {
            let currency = CurrencyDirectory.currency(CoinDeskCodes.rateCode(code), in: table)
            let rate = DecimalText.rounded(quoted, scale: decimals)
            w.key(code, first: n == 0)
            w.raw("{")
            w.key("code", first: true); w.string(code)
            if shape == .headline { w.key("symbol"); w.string(HTMLEntities.encode(currency.symbol ?? code)) }
            w.key("rate"); w.string(DecimalText.grouped(rate, decimals: decimals))
            w.key("description"); w.string(currency.name)
            w.key("rate_float"); w.number(rate)
            w.raw("}")
        }
        w.raw("}}")
        return w.bytes
    }

    /// `[{"currency":"USD","country":"United States Dollar"},…]` (CoinDesk's field names; the
    /// "country" holds the currency's name, as CoinDesk's did), sorted by code, BTC and XBT both.
    static func supportedCurrencies(_ table: RateTable) -> [UInt8] {
        let codes = CoinDeskCodes.supportedCodes(table)
        var w = JSONWriter(capacity: codes.count * 64)
        w.raw("[")
        for (n, code) in codes.enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("{")
            w.key("currency", first: true); w.string(code)
            w.key("country"); w.string(CurrencyDirectory.currency(CoinDeskCodes.rateCode(code), in: table).name)
            w.raw("}")
        }
        w.raw("]")
        return w.bytes
    }
}
