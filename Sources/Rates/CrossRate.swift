import Foundation

/// Rates between any two currencies of one BTC-based table:
/// rate(base→X) = rate(BTC→X) / rate(BTC→base).
///
/// With base BTC the upstream's own number is returned untouched (exact); any other quotient
/// is rounded to `DecimalText.derivedSignificantDigits` significant digits.
public enum CrossRate {
    /// Units of `code` one unit of `base` buys, exact (38-digit `Decimal` quotient), or nil when
    /// the table lacks either code.
    public static func exact(_ table: RateTable, base: String, code: String) -> Decimal? {
        guard let toCode = table.rate(code), let toBase = table.rate(base) else { return nil }
        if base == code { return 1 }
        if base == "BTC" { return toCode }
        return toCode / toBase
    }

    /// The rate as served: exact for base BTC (or base = code), else rounded.
    public static func served(_ table: RateTable, base: String, code: String) -> Decimal? {
        guard let rate = exact(table, base: base, code: code) else { return nil }
        if base == "BTC" || base == code { return rate }
        return DecimalText.rounded(rate, significantDigits: DecimalText.derivedSignificantDigits)
    }

    /// `amount` of `from` in `to`: amount × exact rate, then rounded (so rounding happens once).
    public static func convert(_ table: RateTable, amount: Decimal, from: String, to: String) -> Decimal? {
        guard let rate = exact(table, base: from, code: to) else { return nil }
        return DecimalText.rounded(amount * rate, significantDigits: DecimalText.derivedSignificantDigits)
    }
}
