// How one libFuzzer input becomes one HTTP/1.1 request to the app.
//
// Layout: byte 0 picks the app (its upstream scenario), byte 1 the route (0xFF: none, the
// path field is the whole path, as the checked-in reproductions use it), byte 2 the method;
// the rest is split at LF into fields: [0] the path parameter(s), [1] the query, [2…] header
// lines. The path parameter is percent-encoded byte by byte (the parser refuses raw non-ASCII
// in a request-target, so `%CC%81`, overlong `%C0%AF` and lone `%FF` is how hostile bytes
// arrive in real life); the query keeps its ASCII delimiters (`=&,+%`) and escapes the rest.
// Header lines go in raw: the parser's own rules decide what is a header.


enum FuzzRequest {
    static let methods = ["GET", "GET", "GET", "HEAD", "DELETE", "POST", "OPTIONS", "PUT"]

    /// The raw request bytes for `input`, aimed at one of `routes` (or, for route byte 0xFF, at
    /// the path field used as a whole path).
    static func build(_ input: [UInt8], routes: [String]) -> [UInt8] {
        let routeByte = input.count > 1 ? Int(input[1]) : 0xFF
        let methodByte = input.count > 2 ? Int(input[2]) : 0
        let rest = input.count > 3 ? Array(input[3...]) : []
        let fields = rest.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        let parameter = fields.first ?? []
        let query = fields.count > 1 ? fields[1] : []
        let headers = fields.count > 2 ? Array(fields[2...]) : []

        var path: [UInt8]
        if routeByte != 0xFF, !routes.isEmpty {
            path = fill(routes[routeByte % routes.count], with: parameter)
        } else {
            path = [UInt8(ascii: "/")] + percentEncoded(parameter, keeping: { $0 == UInt8(ascii: "/") || isUnreserved($0) })
        }
        if !query.isEmpty {
            path.append(UInt8(ascii: "?"))
            path += percentEncoded(query, keeping: { isUnreserved($0) || "=&,+%:;!$'()*@/?".utf8.contains($0) })
        }
        var out = Array(methods[methodByte % methods.count].utf8) + [0x20] + path + Array(" HTTP/1.1\r\nHost: almanac.test\r\n".utf8)
        for line in headers.prefix(12) {
            out += line.filter { $0 != 0x0D } + [0x0D, 0x0A]
        }
        out += [0x0D, 0x0A]
        return out
    }

    /// `pattern` with every `{name}` replaced by the encoded parameter; several placeholders
    /// take successive `|`-separated pieces of it.
    static func fill(_ pattern: String, with parameter: [UInt8]) -> [UInt8] {
        var pieces = parameter.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map(Array.init)
        var out: [UInt8] = []
        var bytes = Array(pattern.utf8)[...]
        while let open = bytes.firstIndex(of: UInt8(ascii: "{")) {
            out += bytes[bytes.startIndex..<open]
            guard let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")) else { break }
            let piece = pieces.isEmpty ? [] : pieces.removeFirst()
            out += percentEncoded(piece, keeping: isUnreserved)
            bytes = bytes[(close + 1)...]
        }
        return out + bytes
    }

    static func isUnreserved(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "-._~".utf8.contains(b)
    }

    static func percentEncoded(_ bytes: [UInt8], keeping keep: (UInt8) -> Bool) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3)
        for b in bytes {
            if keep(b) { out.append(b) } else { out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]] }
        }
        return out
    }
}
