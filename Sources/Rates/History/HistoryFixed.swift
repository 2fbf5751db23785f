import Base
import Foundation

/// Historical values as fixed-point integers: units of 10⁻⁸ in an `Int64` (up to about
/// 92 billion, with eight decimals). Upstream closes and ECB rates are read straight from
/// their decimal text into this form, so a cached block is a flat `[Int64]`, a warm ten-year
/// range renders with integer arithmetic only, and no value ever passes through `Double`.
public enum HistoryFixed {
    /// 10⁸: one unit.
    public static let one: Int64 = 100_000_000

    /// A positive decimal literal (`42280.23`, `"0.90498"`, `4.228e4`), rounded half up to eight
    /// decimals; nil for anything else: signs, zero, `NaN`, empty, too long, or too large.
    public static func parse<S: StringProtocol>(_ text: S) -> Int64? {
        var mantissa: Int128 = 0
        var digits = 0, fractionDigits = 0, seenDot = false, seenDigit = false
        var exponent = 0, exponentSign = 1, inExponent = false, exponentDigits = 0, signSeen = false
        var count = 0
        var lastByte: UInt8 = 0
        for b in text.utf8 {
            count += 1
            lastByte = b
            guard count <= 64 else { return nil }
            switch b {
            case 0x30...0x39 where inExponent:
                exponentDigits += 1
                guard exponentDigits <= 3 else { return nil }
                exponent = exponent * 10 + Int(b - 0x30)
            case 0x30...0x39:
                seenDigit = true
                if mantissa == 0 && b == 0x30 {
                    if seenDot { fractionDigits += 1 }
                    continue
                }
                digits += 1
                guard digits <= 36 else { return nil }
                mantissa = mantissa * 10 + Int128(b - 0x30)
                if seenDot { fractionDigits += 1 }
            case UInt8(ascii: ".") where !seenDot && !inExponent && seenDigit:
                seenDot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !inExponent, seenDigit else { return nil }
                inExponent = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard inExponent, exponentDigits == 0, !signSeen else { return nil }
                signSeen = true
                if b == UInt8(ascii: "-") { exponentSign = -1 }
            default:
                return nil
            }
        }
        guard seenDigit, !inExponent || exponentDigits > 0, mantissa > 0 else { return nil }
        if lastByte == UInt8(ascii: ".") { return nil }
        // value = mantissa × 10^(exponent·sign − fractionDigits); we want it × 10^8.
        let shift = exponentSign * exponent - fractionDigits + 8
        var scaled = mantissa
        if shift >= 0 {
            for _ in 0..<shift {
                scaled *= 10
                guard scaled <= Int128(Int64.max) else { return nil }
            }
        } else {
            let drop = -shift
            guard drop <= 38 else { return nil }
            var divisor: Int128 = 1
            for _ in 0..<drop { divisor *= 10 }
            scaled = (scaled + divisor / 2) / divisor
        }
        guard scaled > 0, scaled <= Int128(Int64.max) else { return nil }
        return Int64(scaled)
    }

    /// `a × b` (both in 10⁻⁸ units) rounded half up to four decimals, in 10⁻⁸ units; nil on
    /// overflow. The BTC close of an ECB currency: BTC-USD close × USD→X rate.
    public static func product(_ a: Int64, _ b: Int64) -> Int64? {
        let exact = Int128(a) * Int128(b)            // 10⁻¹⁶ units
        let unit: Int128 = 1_000_000_000_000         // 10⁻¹⁶ → 10⁻⁴
        let rounded = (exact + unit / 2) / unit * 10_000
        guard rounded > 0, rounded <= Int128(Int64.max) else { return nil }
        return Int64(rounded)
    }

    /// The exact `Decimal` of a fixed value.
    public static func decimal(_ value: Int64) -> Decimal {
        Decimal(sign: value < 0 ? .minus : .plus, exponent: -8, significand: Decimal(value.magnitude))
    }

    /// Appends `value` as a JSON number with at most `decimals` decimals (half up, trailing
    /// zeros dropped): `4228023000000` → `42280.23`.
    public static func append(_ value: Int64, decimals: Int = 4, to out: inout [UInt8]) {
        let kept = max(0, min(8, decimals))
        var unit: Int64 = 1
        for _ in 0..<(8 - kept) { unit *= 10 }
        var scaled = value.magnitude / UInt64(unit)
        if value.magnitude % UInt64(unit) >= UInt64(unit) / 2 && unit > 1 { scaled += 1 }
        var fractionUnit: UInt64 = 1
        for _ in 0..<kept { fractionUnit *= 10 }
        if value < 0 && scaled > 0 { out.append(UInt8(ascii: "-")) }
        ASCIIDecimal.append(scaled / fractionUnit, to: &out)
        var fraction = scaled % fractionUnit
        guard fraction > 0 else { return }
        var width = kept
        while fraction % 10 == 0 { fraction /= 10; width -= 1 }
        out.append(UInt8(ascii: "."))
        var digits = [UInt8](repeating: 0x30, count: width)
        var i = width - 1
        while fraction > 0 && i >= 0 {
            digits[i] = 0x30 + UInt8(fraction % 10)
            fraction /= 10
            i -= 1
        }
        out.append(contentsOf: digits)
    }
}
