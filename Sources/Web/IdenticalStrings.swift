/// Whether two strings are the same value bit for bit: then they are the same bytes, told in
/// two loads, without lending either string's UTF-8.
///
/// Short strings (up to 15 UTF-8 bytes) live inside the `String` value itself, so a method
/// token or a placeholder name that a request and a route both spell (`GET`, `isbn`) is
/// usually the very same bits. Bits that differ prove nothing (the same text can be stored
/// inline in one value and on the heap in another): callers then compare the bytes.
public enum IdenticalStrings {
    public static func identical(_ a: String, _ b: String) -> Bool {
        withUnsafeBytes(of: a) { aBits in withUnsafeBytes(of: b) { bBits in sameBits(aBits, bBits) } }
    }

    /// Whether two values' representations are the same bytes (eight at a time).
    static func sameBits(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var index = 0
        while index + 8 <= a.count {
            guard a.loadUnaligned(fromByteOffset: index, as: UInt64.self) == b.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else { return false }
            index += 8
        }
        while index < a.count {
            guard a[index] == b[index] else { return false }
            index += 1
        }
        return true
    }
}
