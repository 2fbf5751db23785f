/// Strict `%XX` decoding of bytes (RFC 3986 §2.1), for the places that must know exactly what
/// a URL part says: Redis URL credentials and the names of secret query parameters. A `%` not
/// followed by two hex digits makes the whole input undecodable (nil) instead of being guessed
/// at; `+` stays `+` (it means a space only in form bodies, which these are not).
public enum PercentDecoding {
    /// The decoded bytes, or nil when a `%` is not followed by two hex digits.
    public static func decode<C: Collection<UInt8>>(_ bytes: C) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard index != bytes.endIndex, let high = hexValue(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            guard index != bytes.endIndex, let low = hexValue(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            out.append(high << 4 | low)
        }
        return out
    }

    /// `0`…`9`, `A`…`F`, `a`…`f` → 0…15.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }
}
