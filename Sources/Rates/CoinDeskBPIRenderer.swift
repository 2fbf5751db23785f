import Foundation

/// Speaks the retired CoinDesk Bitcoin Price Index v1 format, so clients written for
/// `api.coindesk.com/v1/bpi/…` keep working by changing only their base URL.
///
/// Shape per CoinDesk's last public responses: `time.updated` (`Sep 28, 2015 01:23:00 UTC`),
/// `time.updatedISO` (`2015-09-28T01:23:00+00:00`), `time.updateduk` (UK civil time, BST or
/// GMT), `disclaimer`, `chartName: "Bitcoin"`, and `bpi.{CODE}` with `code`, HTML-entity
/// `symbol`, `rate` (`"91,234.5600"`: thousands separators, 4 decimals), `description` and
/// `rate_float` (the same value rounded to 4 decimals, as a JSON number).
public enum CoinDeskBPIRenderer {
    /// The codes of `/v1/bpi/currentprice.json`, in CoinDesk's order.
    public static let headlineCodes = ["USD", "GBP", "EUR"]
    /// Decimals of `rate` and `rate_float`.
    public static let decimals = 4

    public static func disclaimer(source: String) -> String {
        "This data was produced by almanac from \(source) exchange rates; it is not the CoinDesk Bitcoin Price Index, which was retired in 2025."
    }

    public static func render(_ query: RatesQuery, table: RateTable) throws(RatesInputError) -> [UInt8] {
        switch query {
        case .bpiCurrentPrice:
            return currentPrice(table, codes: headlineCodes.filter { table.rate($0) != nil })
        case let .bpiCurrentPriceIn(code):
            try RatesRenderer.requireKnown([code], in: table)
            let codes = (table.rate("USD") != nil ? ["USD"] : []) + (code == "USD" ? [] : [code])
            return currentPrice(table, codes: codes)
        case .bpiSupportedCurrencies:
            return supportedCurrencies(table)
        default:
            return try RatesRenderer.render(query, table: table)
        }
    }

    static func currentPrice(_ table: RateTable, codes: [String]) -> [UInt8] {
        var w = JSONWriter(capacity: 700)
        w.raw("{")
        w.key("time", first: true)
        w.raw("{")
        w.key("updated", first: true); w.string(TimestampText.coinDeskUpdated(table.updated))
        w.key("updatedISO"); w.string(TimestampText.coinDeskISO(table.updated))
        w.key("updateduk"); w.string(TimestampText.coinDeskUpdatedUK(table.updated))
        w.raw("}")
        w.key("disclaimer"); w.string(disclaimer(source: table.source))
        w.key("chartName"); w.string("Bitcoin")
        w.key("bpi"); w.raw("{")
        for (n, (code, quoted)) in codes.compactMap({ code in table.rate(code).map { (code, $0) } }).enumerated() {
            let currency = CurrencyDirectory.currency(code, in: table)
            let rate = DecimalText.rounded(quoted, scale: decimals)
            w.key(code, first: n == 0)
            w.raw("{")
            w.key("code", first: true); w.string(code)
            w.key("symbol"); w.string(HTMLEntities.encode(currency.symbol ?? code))
            w.key("rate"); w.string(DecimalText.grouped(rate, decimals: decimals))
            w.key("description"); w.string(currency.name)
            w.key("rate_float"); w.number(rate)
            w.raw("}")
        }
        w.raw("}}")
        return w.bytes
    }

    /// `[{"currency":"USD","country":"United States Dollar"},…]` (CoinDesk's field names; the
    /// "country" holds the currency's name, as CoinDesk's did).
    static func supportedCurrencies(_ table: RateTable) -> [UInt8] {
        var w = JSONWriter(capacity: table.codes.count * 64)
        w.raw("[")
        for (n, code) in table.codes.enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("{")
            w.key("currency", first: true); w.string(code)
            w.key("country"); w.string(CurrencyDirectory.currency(code, in: table).name)
            w.raw("}")
        }
        w.raw("]")
        return w.bytes
    }
}
