import Base
import Foundation

/// Exact conversions between decimal text and Foundation `Decimal`, never through `Double`.
///
/// Precision rules (documented in docs/rates.md):
/// - Upstream rates are kept exactly up to `Decimal`'s 38 significant digits.
/// - Derived numbers (cross rates, conversion results) are computed in `Decimal` and rounded
///   to `derivedSignificantDigits` significant digits, half away from zero. 15 digits is the
///   most that every IEEE-754 double round-trips, so a client that parses JSON numbers as
///   doubles reads back exactly the decimal almanac wrote.
/// - JSON numbers are written from `Decimal.description` (plain notation, no exponent).
public enum DecimalText {
    /// Significant digits kept by cross rates and conversion results.
    public static let derivedSignificantDigits = 15

    /// Parses a decimal literal strictly (`DecimalLiteral`): optional `-`, digits, optional
    /// `.digits`, optional exponent. Leading zeros are allowed (upstream strings such as `"0.0000123"` or
    /// `"007"`), anything else (`"12abc"`, `" 1"`, `"NaN"`, `"1,000"`) is rejected — unlike
    /// `Decimal(string:)`, which stops quietly at the first bad character.
    public static func parse<S: StringProtocol>(_ text: S) -> Decimal? {
        guard text.utf8.count <= 400, DecimalLiteral.matches(text.utf8, sign: .minusOnly) else { return nil }
        guard let value = Decimal(string: String(text), locale: Locale(identifier: "en_US_POSIX")),
              !value.isNaN else { return nil }
        return value
    }

    /// `value` as a JSON number: plain notation, no exponent, no trailing zeros.
    public static func json(_ value: Decimal) -> String {
        value.description
    }

    /// Rounds to `digits` significant digits, half away from zero (0 stays 0).
    public static func rounded(_ value: Decimal, significantDigits digits: Int) -> Decimal {
        guard !value.isZero, !value.isNaN else { return value }
        let magnitude = value.magnitude
        let significandDigits = magnitude.significand.description.count
        let adjustedExponent = magnitude.exponent + significandDigits - 1
        guard significandDigits > digits else { return value }
        return rounded(value, scale: digits - 1 - adjustedExponent)
    }

    /// Rounds to `scale` digits after the decimal point, half away from zero.
    public static func rounded(_ value: Decimal, scale: Int) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, scale, .plain)
        return output
    }

    /// CoinDesk's display format: thousands separators and exactly `decimals` decimals,
    /// e.g. `91234.56` → `"91,234.5600"`.
    public static func grouped(_ value: Decimal, decimals: Int) -> String {
        let text = rounded(value, scale: decimals).description
        var integer = Substring(text)
        var fraction = Substring("")
        var sign = ""
        if integer.hasPrefix("-") { sign = "-"; integer = integer.dropFirst() }
        if let dot = integer.firstIndex(of: ".") {
            fraction = integer[integer.index(after: dot)...]
            integer = integer[..<dot]
        }
        var groupedInteger = ""
        for (n, ch) in integer.enumerated() {
            if n > 0, (integer.count - n) % 3 == 0 { groupedInteger.append(",") }
            groupedInteger.append(ch)
        }
        guard decimals > 0 else { return sign + groupedInteger }
        let paddedFraction = fraction + String(repeating: "0", count: max(0, decimals - fraction.count))
        return sign + groupedInteger + "." + paddedFraction
    }
}
