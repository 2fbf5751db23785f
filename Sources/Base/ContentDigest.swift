/// 64-bit FNV-1a over content: a cheap, stable hash for cache validators and ETags. Not a
/// security boundary: an ETag only has to change when the content does (RFC 9110 §8.8.3).
///
/// Parts are separated so `("ab", "c")` and `("a", "bc")` differ. Text parts end with 0x1F
/// (the ASCII unit separator) and byte parts with 0xFF (a byte no UTF-8 text contains); the
/// two separators keep every validator almanac has published unchanged.
public struct ContentDigest: Sendable, Equatable {
    public private(set) var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// Mixes `text`'s UTF-8 bytes in, then the 0x1F separator.
    public mutating func combine(_ text: String) {
        for byte in text.utf8 { mix(byte) }
        mix(0x1F)
    }

    /// Mixes `bytes` in, then the 0xFF separator.
    public mutating func combine(bytes: [UInt8]) {
        for byte in bytes { mix(byte) }
        mix(0xFF)
    }

    /// Mixes one byte in (FNV-1a: xor, then multiply by the 64-bit FNV prime).
    public mutating func mix(_ byte: UInt8) {
        state ^= UInt64(byte)
        state &*= 0x0000_0100_0000_01B3
    }

    /// 16 lower-case hex digits.
    public var hex: String {
        let s = String(state, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// The same 64 bits as 13 base-32 digits (`0`–`9`, `a`–`v`, most significant first): one
    /// character short of what a Swift `String` holds inline (15 UTF-8 bytes), so a validator
    /// kept per cache entry costs no heap allocation, where the 16 hex digits of `hex` do.
    public var compactText: String {
        let digits = Array("0123456789abcdefghijklmnopqrstuv".utf8)
        return String(unsafeUninitializedCapacity: 13) { buffer in
            for i in 0..<13 {
                buffer[i] = digits[Int(truncatingIfNeeded: (state >> UInt64(60 - 5 * i)) & 0x1F)]
            }
            return 13
        }
    }

    /// The hex digest of `text`'s bytes alone, without a separator.
    public static func hex(of text: String) -> String {
        var digest = ContentDigest()
        for byte in text.utf8 { digest.mix(byte) }
        return digest.hex
    }
}
