/// Percent-decoding for paths and `application/x-www-form-urlencoded` query strings.
public enum QueryString {
    /// Splits `a=1&b=2` into decoded items. Items without `=` get an empty value;
    /// empty pieces (`a=1&&b=2`) are skipped. Invalid escapes are kept literally.
    public static func decode(_ query: String) -> [QueryItem] {
        var items: [QueryItem] = []
        forEachPiece(of: query) { name, value in
            items.append(QueryItem(name: percentDecode(name, plusIsSpace: true),
                                   value: value.map { percentDecode($0, plusIsSpace: true) } ?? ""))
            return true
        }
        return items
    }

    /// The decoded value of the first item whose decoded name is `name` (compared as bytes), as
    /// `decode(query)` would list it, without decoding the values of the others: a handler
    /// asking for two or three parameters reads the query that many times.
    public static func firstValue(named name: String, in query: String) -> String? {
        var found: String?
        forEachPiece(of: query) { pieceName, value in
            guard percentDecode(pieceName, plusIsSpace: true).utf8.elementsEqual(name.utf8) else { return true }
            found = value.map { percentDecode($0, plusIsSpace: true) } ?? ""
            return false
        }
        return found
    }

    /// The one splitting rule of both: `&`-separated pieces, empty ones skipped, each a name and,
    /// after the first `=`, a value (nil without `=`). `body` returns false to stop.
    private static func forEachPiece(of query: String,
                                     _ body: (Substring.UTF8View.SubSequence, Substring.UTF8View.SubSequence?) -> Bool) {
        guard !query.isEmpty else { return }
        for piece in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let keepGoing: Bool
            if let eq = piece.firstIndex(of: UInt8(ascii: "=")) {
                keepGoing = body(piece[piece.startIndex..<eq], piece[piece.index(after: eq)...])
            } else {
                keepGoing = body(piece[...], nil)
            }
            if !keepGoing { return }
        }
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
