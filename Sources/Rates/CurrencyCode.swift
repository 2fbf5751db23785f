/// Currency codes as almanac accepts them: exactly three ASCII letters (ISO 4217 §6.1's
/// alphabetic code shape), any case on input, upper case everywhere after.
///
/// Upstream codes of other shapes (`USDC`, `1INCH`, `SHIB`) are dropped when a table is
/// decoded, so every code a table lists is one a client can ask for.
public enum CurrencyCode {
    /// The upper-cased code, or nil when `text` is not three ASCII letters.
    public static func normalize<S: StringProtocol>(_ text: S) -> String? {
        let utf8 = text.utf8
        guard utf8.count == 3 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(3)
        for b in utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(b)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): out.append(b - 0x20)
            default: return nil
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
