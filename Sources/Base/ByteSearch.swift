/// Finding one byte value in a buffer eight bytes at a time, in plain Swift: what `memchr` does
/// for the request parser's line search, without the C library (the HTTP/1.1 layer has no Glibc).
///
/// The word test is the classic "has a zero byte" trick on `word ^ pattern`: a byte of the
/// difference is zero exactly where the word holds the needle, and
/// `(x - 0x01…01) & ~x & 0x80…80` marks the lowest such byte (higher marks may be false
/// positives after a borrow, but the lowest one never is), so the first match is the lowest
/// mark's position. Words are read with unaligned loads; the tail is read byte by byte.
///
/// The word tests are public so that other byte scans (the response header guard) spell them
/// once, here.
public enum ByteSearch {
    /// 0x01 in every byte of a word.
    public static let lowBits: UInt64 = 0x0101_0101_0101_0101
    /// 0x80 in every byte of a word.
    public static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Non-zero when some byte of `word` is below `limit` (≤ 0x80): the classic SWAR test,
    /// exact for "is there one" (a byte ≥ 0x80 never counts, its own high bit is masked out).
    /// With `limit` 1 the lowest mark is the first zero byte (higher marks may be false
    /// positives after a borrow, the lowest one never is).
    @inlinable @inline(__always)
    public static func marks(below limit: UInt64, in word: UInt64) -> UInt64 {
        (word &- lowBits &* limit) & ~word & highBits
    }

    /// Non-zero when some byte of `word` equals `byte`; the lowest mark is the first match.
    @inlinable @inline(__always)
    public static func marks(of byte: UInt64, in word: UInt64) -> UInt64 {
        marks(below: 1, in: word ^ (lowBits &* byte))
    }

    /// The index (from `base`) of the first `needle` in `base[start..<end]`, or nil.
    @inlinable
    public static func firstIndex(of needle: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let marks = marks(of: UInt64(needle), in: word)
            if marks != 0 { return index + marks.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < end {
            if base[index] == needle { return index }
            index += 1
        }
        return nil
    }
}
