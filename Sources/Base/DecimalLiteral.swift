/// The decimal-literal grammar almanac accepts wherever a number arrives as text: an optional
/// sign, digits, an optional `.digits` and an optional exponent (`e` or `E`, an optional sign,
/// digits). Leading zeros are allowed; nothing else is: no spaces, no `NaN`, no `1,000`, no
/// `.5` or `5.`. Upstream rate strings (`DecimalText`) and RESP3 doubles read through it, so
/// both refuse exactly the same spellings before a lenient converter (`Decimal(string:)`,
/// `Double(_:)`) sees them.
public enum DecimalLiteral {
    /// Which leading sign the literal may have: upstream rates take `-` only, RESP3 doubles `+` too.
    public enum Sign: Sendable {
        case minusOnly, plusOrMinus
    }

    /// True when all of `bytes` is one literal.
    public static func matches<C: Collection<UInt8>>(_ bytes: C, sign: Sign) -> Bool {
        var index = bytes.startIndex
        func take(_ accepted: (UInt8) -> Bool) -> Bool {
            guard index < bytes.endIndex, accepted(bytes[index]) else { return false }
            bytes.formIndex(after: &index)
            return true
        }
        func digits() -> Bool {
            var any = false
            while take({ $0 >= 0x30 && $0 <= 0x39 }) { any = true }
            return any
        }
        _ = take { $0 == UInt8(ascii: "-") || (sign == .plusOrMinus && $0 == UInt8(ascii: "+")) }
        guard digits() else { return false }
        if take({ $0 == UInt8(ascii: ".") }) {
            guard digits() else { return false }
        }
        if take({ $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            _ = take { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
            guard digits() else { return false }
        }
        return index == bytes.endIndex
    }
}
