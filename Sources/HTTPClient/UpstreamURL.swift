import Base
import CCurl

/// A URL as libcurl itself parses it, so the host we check is the host curl would connect to.
///
/// The one URL type of the project: the client's origin checks and the providers' string
/// helpers (host of a thumbnail URL, the path of a cover, a configured query value) all read a
/// URL the way curl does, or as bytes — never as Swift `Character`s, since these URLs come
/// from upstream answers and configuration.
public struct UpstreamURL: Sendable, Equatable {
    /// Lower-cased scheme, e.g. `https`.
    public var scheme: String
    /// Lower-cased host name or address, without IPv6 brackets.
    public var host: String
    /// The port curl connects to: the URL's, else the scheme's default.
    public var port: Int

    /// Parses an absolute URL with curl's URL API; nil when curl would reject it.
    public static func parse(_ string: String) -> UpstreamURL? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, string, 0) == CURLUE_OK else { return nil }
        guard let scheme = part(CURLUPART_SCHEME, of: handle), var host = part(CURLUPART_HOST, of: handle),
              !host.isEmpty, let portText = part(CURLUPART_PORT, of: handle, flags: UInt32(CURLU_DEFAULT_PORT)),
              let port = Int(portText) else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return UpstreamURL(scheme: scheme.lowercased(), host: host.lowercased(), port: port)
    }

    /// True when curl sees userinfo (`user[:password]@`) in `string`.
    public static func hasUserinfo(_ string: String) -> Bool {
        guard let handle = curl_url() else { return true }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, string, 0) == CURLUE_OK else { return false }
        return part(CURLUPART_USER, of: handle) != nil || part(CURLUPART_PASSWORD, of: handle) != nil
    }

    private static func part(_ which: CURLUPart, of handle: OpaquePointer, flags: UInt32 = 0) -> String? {
        var out: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, which, &out, flags) == CURLUE_OK, let out else { return nil }
        defer { curl_free(out) }
        return String(cString: out)
    }

    /// Only plain HTTP and HTTPS upstreams are ever contacted (never `file:`, `ftp:`, `gopher:`…).
    public var isHTTP: Bool { scheme == "http" || scheme == "https" }
}

// MARK: - String helpers for providers (curl's reading, or bytes)

extension UpstreamURL {
    /// `https://Books.Google.com:443/x` → `books.google.com`, as curl reads it; nil for anything
    /// that is not an absolute http(s) URL curl accepts, or that carries userinfo
    /// (`https://a.com@b.com/`).
    public static func host(of url: String) -> String? {
        guard let parsed = parse(url), parsed.isHTTP, !hasUserinfo(url) else { return nil }
        return parsed.host
    }

    /// The host as written between `://` and the first `/`, `?` or `#` (after any userinfo,
    /// before any port, IPv6 brackets kept), ASCII lower-cased; nil for anything but http(s).
    /// Only for decisions that rewrite text (upgrading a known image host to https); what is
    /// fetched is always judged by `parse`, as curl reads it.
    public static func writtenHost(of url: String) -> String? {
        guard let start = authorityStart(url) else { return nil }
        let bytes = Array(url.utf8[start...])
        let end = bytes.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        var authority = bytes[..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        if authority.first == UInt8(ascii: "[") {
            if let close = authority.firstIndex(of: UInt8(ascii: "]")) { authority = authority[...close] }
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            authority = authority[..<colon]
        }
        guard !authority.isEmpty else { return nil }
        return ASCIICase.lowercased(authority)
    }

    /// The path, query and fragment after the authority (`/b/id/1-L.jpg?x`), or nil when `url`
    /// is not an absolute http(s) URL; "" when nothing follows the authority.
    public static func pathAndQuery(of url: String) -> Substring? {
        guard let start = authorityStart(url) else { return nil }
        let bytes = url.utf8
        let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        guard let end else { return "" }
        return Substring(url[end...])
    }

    /// Whether `url` starts with `http://` (any case).
    public static func isPlainHTTP(_ url: String) -> Bool { scheme(of: url) == "http" }

    /// `http://x/y` → `https://x/y`; anything else unchanged.
    public static func upgradedToHTTPS(_ url: String) -> String {
        guard isPlainHTTP(url) else { return url }
        return "https://" + String(Substring(url.utf8.dropFirst("http://".utf8.count)))
    }

    /// Adds `name=value` with `&` or `?` as the URL needs; `value` is percent-encoded, so a
    /// configured value (API key, country) can never add a parameter.
    public static func appendingQuery(_ url: String, _ name: String, _ value: String) -> String {
        url + (url.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + name + "=" + percentEncoded(value)
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters (§2.3).
    public static func percentEncoded(_ value: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `http` or `https` (lower case) when `url` starts with `http://` or `https://` in any case.
    private static func scheme(of url: String) -> String? {
        if url.hasASCIIPrefixIgnoringCase("https://") { return "https" }
        if url.hasASCIIPrefixIgnoringCase("http://") { return "http" }
        return nil
    }

    /// Where the authority begins (right after `://`), for http(s) URLs only.
    private static func authorityStart(_ url: String) -> String.Index? {
        guard let scheme = scheme(of: url) else { return nil }
        return url.utf8.index(url.utf8.startIndex, offsetBy: scheme.utf8.count + 3)
    }
}
