/// Integers spelled in ASCII decimal straight into a byte buffer, exactly as `String(_:)`
/// spells them, without making the `String`: response heads (`Content-Length`, the status
/// code), the access log and rendered bodies write numbers on every request.
public enum ASCIIDecimal {
    /// At most this many bytes (`Int.min`, with its sign).
    public static let maxBytes = 20

    /// Appends the digits of `value` (with `-` when negative) to `out`.
    @inlinable
    public static func append(_ value: Int, to out: inout [UInt8]) {
        withDigits(of: value) { out.append(contentsOf: $0) }
    }

    /// Appends the digits of `value` to `out`.
    @inlinable
    public static func append(_ value: UInt64, to out: inout [UInt8]) {
        withDigits(magnitude: value, negative: false) { out.append(contentsOf: $0) }
    }

    /// Calls `body` with the digits of `value` (with `-` when negative), formatted on the stack.
    @inlinable
    public static func withDigits<R>(of value: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        withDigits(magnitude: UInt64(value.magnitude), negative: value < 0, body)
    }

    @inlinable
    static func withDigits<R>(magnitude: UInt64, negative: Bool, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes
        return withUnsafeMutableBytes(of: &scratch) { raw in
            var n = magnitude
            var start = 24
            repeat {
                start -= 1
                raw[start] = UInt8(truncatingIfNeeded: 48 + n % 10)
                n /= 10
            } while n > 0
            if negative {
                start -= 1
                raw[start] = UInt8(ascii: "-")
            }
            return body(UnsafeRawBufferPointer(rebasing: raw[start...]))
        }
    }
}
