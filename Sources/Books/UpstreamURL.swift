/// The few URL operations the books service needs, on plain strings: it never follows a URL it
/// did not check, and Foundation's `URL` is lenient in ways (`\`, whitespace) that make hosts
/// ambiguous.
enum UpstreamURL {
    /// `https://Books.Google.com:443/x` → `books.google.com`; nil for anything that is not an
    /// absolute http(s) URL with a plain host (userinfo is refused: `https://a.com@b.com/`).
    static func host(of url: String) -> String? {
        guard let rest = afterScheme(url) else { return nil }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@"), !authority.contains("\\") else { return nil }
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        guard !host.isEmpty, host.allSatisfy({ !$0.isWhitespace }) else { return nil }
        return host.lowercased()
    }

    /// The path, query and fragment after the authority (`/b/id/1-L.jpg`), or nil.
    static func pathAndQuery(of url: String) -> Substring? {
        guard let rest = afterScheme(url) else { return nil }
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return "" }
        return rest[slash...]
    }

    static func isHTTP(_ url: String) -> Bool { url.lowercased().hasPrefix("http://") }

    /// `http://x/y` → `https://x/y`.
    static func upgradedToHTTPS(_ url: String) -> String {
        isHTTP(url) ? "https://" + url.dropFirst("http://".count) : url
    }

    /// Adds `name=value` with `&` or `?` as the URL needs.
    static func appendingQuery(_ url: String, _ name: String, _ value: String) -> String {
        url + (url.contains("?") ? "&" : "?") + name + "=" + encode(value)
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters (§2.3): a configured value
    /// (API key, country) can never add a parameter.
    static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    private static func afterScheme(_ url: String) -> Substring? {
        let lower = url.lowercased()
        if lower.hasPrefix("https://") { return url.dropFirst(8) }
        if lower.hasPrefix("http://") { return url.dropFirst(7) }
        return nil
    }
}
