import Base
import Foundation
import HTTPClient

/// Renders almanac's own rates JSON (docs/rates.md "Endpoints") from a table, with keys in the documented
/// order and currencies sorted by code. Unknown codes throw `RatesInputError` (404).
///
/// Both domains render the same way: the domain module writes its documented representations
/// (`RatesRenderer`, `CoinDeskBPIRenderer`, `HistoryRenderer`; Books' `BooksRenderer`) and
/// describes its problems as values with their slugs (`RatesInputError`, `BooksProblem`);
/// the HTTP layer adds status, headers and the RFC 9457 document with almanac's type URIs.
/// Why there: the formats are pure functions of domain types, tested and fuzzed (the fuzz
/// package links Rates and Books without the app) beside the types they render, and a new
/// domain needs no HTTP knowledge to be exact about its bytes. The one thing the HTTP layer
/// hands a domain is its problem encoder, where a problem answer is cached as bytes (books'
/// 404s, `BooksProblem.Encoder`).
public enum RatesRenderer {
    /// The body for `query`, or the 404 naming the codes `table` does not quote.
    /// - Parameter constituents: the index's constituents used (the CoinDesk disclaimer names them).
    public static func render(_ query: RatesQuery, table: RateTable, constituents: [String] = []) throws(RatesInputError) -> [UInt8] {
        switch query {
        case let .rates(base, symbols): return try rates(table, base: base, symbols: symbols)
        case let .rate(code, base): return try rate(table, code: code, base: base)
        case let .convert(from, to, amount): return try convert(table, from: from, to: to, amount: amount)
        case .currencies: return currencies(table)
        case .bpiCurrentPrice, .bpiCurrentPriceIn, .bpiSupportedCurrencies:
            return try CoinDeskBPIRenderer.render(query, table: table, constituents: constituents)
        }
    }

    /// Every code must be quoted by `table`: a code the provider never listed is a 404 (all
    /// of them named); failing that, one it listed with an unusable value is a 502 naming the
    /// provider and the field (`RateTable.unavailable`).
    static func requireKnown(_ codes: [String], in table: RateTable) throws(RatesInputError) {
        var unknown: [String] = []
        var unavailable: (code: String, error: UpstreamError)?
        for code in codes where table.rate(code) == nil {
            if let error = table.unavailable[code] {
                if unavailable == nil { unavailable = (code, error) }
            } else if !unknown.contains(code) {
                unknown.append(code)
            }
        }
        if !unknown.isEmpty { throw RatesInputError.unknown(unknown) }
        if let unavailable { throw RatesInputError.unavailable(unavailable.code, unavailable.error) }
    }

    /// `{"base","updated","source","rates":{"USD":{"code","name","symbol","rate"},…}}`
    static func rates(_ table: RateTable, base: String, symbols: [String]?) throws(RatesInputError) -> [UInt8] {
        try requireKnown([base] + (symbols ?? []), in: table)
        let codes = symbols ?? table.codes
        var w = JSONWriter(capacity: 64 + codes.count * 96)
        w.raw("{")
        w.key("base", first: true); w.string(base)
        w.key("updated"); w.string(TimestampText.iso8601UTC(table.updated))
        w.key("source"); w.string(table.source)
        w.key("rates"); w.raw("{")
        for (n, code) in codes.enumerated() {
            w.key(code, first: n == 0)
            currencyFields(code, table: table, to: &w)
            w.key("rate"); w.number(try served(table, base: base, code: code))
            w.raw("}")
        }
        w.raw("}}")
        return w.bytes
    }

    /// `{"code","name","symbol"` of one currency, left open for what follows (the rate).
    static func currencyFields(_ code: String, table: RateTable, to w: inout JSONWriter) {
        let currency = CurrencyDirectory.currency(code, in: table)
        w.raw("{")
        w.key("code", first: true); w.string(code)
        w.key("name"); w.string(currency.name)
        w.key("symbol"); w.optionalString(currency.symbol)
    }

    /// The served cross rate; `requireKnown` ran first, so a nil (a code the table lacks) is
    /// answered as the 404 it would be rather than trapped on.
    static func served(_ table: RateTable, base: String, code: String) throws(RatesInputError) -> Decimal {
        guard let rate = CrossRate.served(table, base: base, code: code) else { throw RatesInputError.unknown([base, code]) }
        return rate
    }

    /// `{"base","code","name","symbol","rate","updated","source"}`
    static func rate(_ table: RateTable, code: String, base: String) throws(RatesInputError) -> [UInt8] {
        try requireKnown([code, base], in: table)
        let currency = CurrencyDirectory.currency(code, in: table)
        var w = JSONWriter()
        w.raw("{")
        w.key("base", first: true); w.string(base)
        w.key("code"); w.string(code)
        w.key("name"); w.string(currency.name)
        w.key("symbol"); w.optionalString(currency.symbol)
        w.key("rate"); w.number(try served(table, base: base, code: code))
        w.key("updated"); w.string(TimestampText.iso8601UTC(table.updated))
        w.key("source"); w.string(table.source)
        w.raw("}")
        return w.bytes
    }

    /// `{"from","to","amount","rate","result","updated","source"}`
    static func convert(_ table: RateTable, from: String, to: String, amount: Decimal) throws(RatesInputError) -> [UInt8] {
        try requireKnown([from, to], in: table)
        var w = JSONWriter()
        w.raw("{")
        w.key("from", first: true); w.string(from)
        w.key("to"); w.string(to)
        w.key("amount"); w.number(amount)
        w.key("rate"); w.number(try served(table, base: from, code: to))
        guard let result = CrossRate.convert(table, amount: amount, from: from, to: to) else { throw RatesInputError.unknown([from, to]) }
        w.key("result"); w.number(result)
        w.key("updated"); w.string(TimestampText.iso8601UTC(table.updated))
        w.key("source"); w.string(table.source)
        w.raw("}")
        return w.bytes
    }

    /// `{"USD":{"code","name","symbol"},…}` for every code the table quotes.
    static func currencies(_ table: RateTable) -> [UInt8] {
        var w = JSONWriter(capacity: table.codes.count * 80)
        w.raw("{")
        for (n, code) in table.codes.enumerated() {
            w.key(code, first: n == 0)
            currencyFields(code, table: table, to: &w)
            w.raw("}")
        }
        w.raw("}")
        return w.bytes
    }
}
