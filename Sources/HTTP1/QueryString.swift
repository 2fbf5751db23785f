/// Percent-decoding for paths and `application/x-www-form-urlencoded` query strings.
public enum QueryString {
    /// Splits `a=1&b=2` into decoded items. Items without `=` get an empty value;
    /// empty pieces (`a=1&&b=2`) are skipped. Invalid escapes are kept literally.
    public static func decode(_ query: String) -> [QueryItem] {
        guard !query.isEmpty else { return [] }
        var items: [QueryItem] = []
        for piece in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let eq = piece.firstIndex(of: UInt8(ascii: "=")) {
                items.append(QueryItem(
                    name: percentDecode(piece[piece.startIndex..<eq], plusIsSpace: true),
                    value: percentDecode(piece[piece.index(after: eq)...], plusIsSpace: true)))
            } else {
                items.append(QueryItem(name: percentDecode(piece, plusIsSpace: true), value: ""))
            }
        }
        return items
    }

    /// Decodes `%XX` escapes (and `+` when `plusIsSpace`). Bytes that do not form valid
    /// UTF-8 after decoding are replaced with U+FFFD rather than failing.
    public static func percentDecode<S: Collection>(_ bytes: S, plusIsSpace: Bool) -> String where S.Element == UInt8 {
        // Nothing to decode (the common case): the bytes become the String directly.
        if !bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                let h1 = bytes.index(after: i)
                if h1 != bytes.endIndex {
                    let h2 = bytes.index(after: h1)
                    if h2 != bytes.endIndex, let hi = hexValue(bytes[h1]), let lo = hexValue(bytes[h2]) {
                        out.append(hi << 4 | lo)
                        i = bytes.index(after: h2)
                        continue
                    }
                }
                out.append(b)
            } else if plusIsSpace && b == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(b)
            }
            i = bytes.index(after: i)
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func percentDecode(_ string: String) -> String {
        percentDecode(string.utf8, plusIsSpace: false)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
