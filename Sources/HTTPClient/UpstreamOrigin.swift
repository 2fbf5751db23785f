import Base
/// The origin (scheme, host, port) of an absolute http(s) URL, read strictly from its bytes.
///
/// A URL an upstream chose (a redirect's `Location`, a thumbnail in a catalogue record) is
/// compared with an allow-list by origin, so the origin must be the one libcurl will connect
/// to, with no room for the many spellings URL parsers disagree on. Rather than normalising
/// them, anything ambiguous is refused:
/// - userinfo (`http://a@b/`, also `http://allowed@evil/`): credentials are never sent anywhere;
/// - numeric hosts that are not a canonical dotted quad (`2130706433`, `0x7f.1`, `0177.0.0.1`,
///   `127.1`), which resolvers read as addresses a reader would not recognise;
/// - IPv6 literals, trailing dots (`books.google.com.`), empty labels, percent-encoding,
///   backslashes (anywhere), spaces, non-ASCII and any byte outside a host name's alphabet;
/// - an empty or out-of-range port.
/// Default ports are made explicit (`https://h` and `https://h:443` are one origin), and the
/// result is cross-checked with libcurl's own parser (`UpstreamURL`): a URL the two read
/// differently is refused.
///
/// Only `parse` makes one outside this module, so every origin a caller holds passed these checks.
public struct UpstreamOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// Lower-cased host name or dotted-quad IPv4 address.
    public let host: String
    /// Always explicit: 80 or 443 when the URL names none.
    public let port: Int

    public var description: String { "\(scheme)://\(host):\(port)" }

    /// Why a URL has no acceptable origin; the cases name the trick, for logs and tests.
    public enum Refusal: String, Sendable, Equatable, Error {
        case notHTTP = "not an absolute http(s) URL"
        case userinfo = "the URL carries userinfo (credentials)"
        case ipv6Literal = "IPv6 literal hosts are refused"
        case numericHost = "numeric host that is not a canonical dotted-quad IPv4 address"
        case trailingDot = "host ends with a dot"
        case badHost = "host is empty or has characters a host name cannot have"
        case badPort = "port is empty or out of range"
        case badCharacters = "the URL has spaces, backslashes, control or non-ASCII bytes"
        case ambiguous = "libcurl reads this URL's host or port differently"
    }

    /// The origin of `url`, or why it has none that may be contacted.
    public static func parse(_ url: String) -> Result<UpstreamOrigin, Refusal> {
        let bytes = Array(url.utf8)
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return .failure(.badCharacters) }
        let scheme: String
        let start: Int
        if url.hasASCIIPrefixIgnoringCase("https://") {
            (scheme, start) = ("https", 8)
        } else if url.hasASCIIPrefixIgnoringCase("http://") {
            (scheme, start) = ("http", 7)
        } else {
            return .failure(.notHTTP)
        }
        var end = start
        while end < bytes.count, !isAuthorityEnd(bytes[end]) { end += 1 }
        let authority = bytes[start..<end]
        if authority.contains(UInt8(ascii: "@")) { return .failure(.userinfo) }
        if authority.first == UInt8(ascii: "[") { return .failure(.ipv6Literal) }
        var hostBytes = authority
        var port = scheme == "https" ? 443 : 80
        if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            hostBytes = authority[authority.startIndex..<colon]
            let digits = authority[(colon + 1)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy(isDigit),
                  let value = Int(String(decoding: digits, as: UTF8.self)), (1...65535).contains(value) else {
                return .failure(.badPort)
            }
            port = value
        }
        let host = ASCIICase.lowercased(hostBytes)
        if let refusal = refusal(ofHost: Array(host.utf8)) { return .failure(refusal) }
        // libcurl must connect exactly where this reading says.
        guard let curl = UpstreamURL.parse(url), curl.scheme == scheme, curl.host == host, curl.port == port else {
            return .failure(.ambiguous)
        }
        return .success(UpstreamOrigin(scheme: scheme, host: host, port: port))
    }

    /// Whether `host` (lower case) is a plain DNS name or a canonical dotted quad.
    static func refusal(ofHost host: [UInt8]) -> Refusal? {
        guard !host.isEmpty, host.count <= 253 else { return .badHost }
        if host.last == UInt8(ascii: ".") { return .trailingDot }
        let labels = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty, label.count <= 63,
                  label.allSatisfy({ isDigit($0) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == UInt8(ascii: "-") }) else {
                return .badHost
            }
        }
        // As the WHATWG URL standard does, a host whose last label is a number (decimal, or
        // `0x…`) is an IPv4 address; only the canonical form is accepted.
        guard let last = labels.last, last.allSatisfy(isDigit) || last.starts(with: Array("0x".utf8)) else { return nil }
        guard labels.count == 4 else { return .numericHost }
        for label in labels {
            guard label.count <= 3, label.allSatisfy(isDigit), label.count == 1 || label.first != UInt8(ascii: "0"),
                  let value = Int(String(decoding: label, as: UTF8.self)), value <= 255 else {
                return .numericHost
            }
        }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `/`, `?` and `#` end an authority (a `\\`, which some parsers read as `/`, never gets here).
    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }
}
