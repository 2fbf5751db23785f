import Base
import Foundation
import HTTPClient

/// Collects decoded rates under the rules every provider shares: codes upper-cased; codes
/// that are not three letters dropped (clients could never ask for them); an empty result is
/// an error, so a provider that "succeeds" with nothing usable fails over instead.
///
/// A rate that is not a positive finite number (zero, negative, unparsable, of the wrong JSON
/// type) or lies outside `usableRates` makes that one currency *unavailable from this
/// provider*: it is left out of the table, and the table remembers why (`unavailable`), so a
/// request naming it gets a 502 naming the provider and the field instead of "unknown
/// currency", while every other currency is still served. (A currency worth nothing cannot be
/// a base or a divisor; no real currency lies outside `usableRates`, and the cross rate of two
/// such extremes overflows `Decimal` into NaN, which is not JSON.)
struct RateTableBuilder {
    /// 1e-30…1e30 units per BTC. Any quotient of two is within 1e-60…1e60, and times any
    /// accepted `amount` (at most 32 characters) stays far inside `Decimal`'s 1e-128…1e127.
    static let usableRates: ClosedRange<Decimal> = Decimal(sign: .plus, exponent: -30, significand: 1)...Decimal(sign: .plus, exponent: 30, significand: 1)

    private(set) var rates: [String: Decimal] = [:]
    private(set) var currencies: [String: Currency] = [:]
    /// Codes whose upstream value was unusable, with the decoding error naming the field.
    private(set) var unavailable: [String: UpstreamError] = [:]

    /// The normalized code when `rawCode` is worth decoding; nil to skip the entry.
    static func usableCode(_ rawCode: String) -> String? {
        CurrencyCode.normalize(rawCode)
    }

    /// Records the rate `field` (e.g. `data.rates.USD`) holds for `code`, or the currency as
    /// unavailable when the rate is not usable. A usable rate wins over an unusable one for the
    /// same code (`usd` and `USD` both present), whatever their order.
    mutating func add(_ code: String, rate: Decimal, field: String, provider: String) {
        if rate.isNaN || rate <= 0 {
            unusable(code, UpstreamError(.malformed, provider: provider, detail: "field \(field) is not a positive number"))
        } else if !RateTableBuilder.usableRates.contains(rate) {
            unusable(code, UpstreamError(.malformed, provider: provider, detail: "field \(field) is out of range (1e-30 to 1e30)"))
        } else {
            rates[code] = rate
            unavailable[code] = nil
        }
    }

    /// Adds every `CODE: rate` member of a provider's rates object at `path` (`data.rates`):
    /// `literal` gives a value's decimal text, or nil when the value has the wrong JSON type
    /// (`expected` says which type), and text `DecimalText` cannot read is `unparsable`.
    mutating func add(rates members: [String: JSONValue], at path: String, decoding d: UpstreamDecoding,
                      expected: String, unparsable: String, literal: (JSONValue) -> String?) {
        for (rawCode, value) in members {
            guard let code = RateTableBuilder.usableCode(rawCode) else { continue }
            let field = "\(path).\(rawCode)"
            guard let text = literal(value) else { unusable(code, d.wrongType(field, expected: expected, got: value)); continue }
            guard let rate = DecimalText.parse(text) else { unusable(code, d.invalid(field, unparsable)); continue }
            add(code, rate: rate, field: field, provider: d.provider)
        }
    }

    /// Marks `code` unavailable from this provider because of `error` (which names the field),
    /// unless a usable rate for it was already recorded. Of two unusable entries for one code
    /// (`usd`, `USD`), the one whose detail sorts first is kept, so the answer does not depend
    /// on the order JSON members are visited in.
    mutating func unusable(_ code: String, _ error: UpstreamError) {
        guard rates[code] == nil else { return }
        if let kept = unavailable[code], kept.detail.utf8.lexicographicallyPrecedes(error.detail.utf8) { return }
        unavailable[code] = error
    }

    mutating func describe(_ code: String, name: String?, symbol: String?) {
        guard name != nil || symbol != nil else { return }
        currencies[code] = Currency(code: code, name: name ?? code, symbol: symbol)
    }

    /// The table, or an error when no currency besides BTC is usable: the first unusable
    /// entry's own error (by code, so the answer does not depend on JSON member order) when
    /// there is one, else "no usable rates".
    func build(updated: Int64, source: String, emptyPath: String) throws(UpstreamError) -> RateTable {
        guard rates.contains(where: { $0.key != "BTC" }) else {
            if let first = unavailable.keys.sorted().first, let error = unavailable[first] { throw error }
            throw UpstreamError(.malformed, provider: source, detail: "field \(emptyPath) holds no usable rates")
        }
        return RateTable(rates: rates, updated: updated, source: source,
                         upstreamCurrencies: currencies.filter { rates[$0.key] != nil },
                         unavailable: unavailable.filter { $0.key != "BTC" })
    }
}
