import Base
import HTTPClient
import HTTP1

/// The absolute base (`https://books.example.com`) of links almanac writes into answers: the
/// Google-compatible `imageLinks`, which clients written for Google expect to be absolute.
///
/// - `server.publicBaseUrl`, when set, is the answer for every request.
/// - Else the request says where it was sent: `http://` + its `Host`. Only with
///   `server.trustForwardedHeaders` do a proxy's `Forwarded` (RFC 7239: `proto=`, `host=`) or,
///   failing that, `X-Forwarded-Proto` / `X-Forwarded-Host` override scheme and host; like
///   `X-Forwarded-For` in the access log, the last element counts (written by the one proxy
///   almanac trusts, directly in front of it).
/// - Every host is validated as bytes before it becomes part of a URL: a DNS name, a dotted
///   IPv4 address or a bracketed IPv6 literal, with an optional port. A value with anything
///   else (quotes, `/`, `@`, spaces, control or non-ASCII bytes) is not used; a forwarded
///   value falls back to `Host`, and an invalid `Host` leaves no base (the route answers 400).
public struct PublicLinks: Sendable, Equatable {
    /// `server.publicBaseUrl` without trailing slashes.
    public var baseURL: String?
    public var trustForwardedHeaders: Bool

    public init(baseURL: String? = nil, trustForwardedHeaders: Bool = false) {
        self.baseURL = baseURL.map(BaseURL.trimmed)
        self.trustForwardedHeaders = trustForwardedHeaders
    }

    /// Request headers the base depends on, for `Vary` (nil when it depends on none but `Host`,
    /// which is part of the URL caches key on anyway).
    public var varyingHeaders: String? {
        baseURL == nil && trustForwardedHeaders ? "Forwarded, X-Forwarded-Proto, X-Forwarded-Host" : nil
    }

    /// The base for links in the answer to `request`, or nil when the request names no valid host.
    public func base(for request: HTTPRequest) -> String? {
        if let baseURL { return baseURL }
        var scheme = "http"
        var host = request.headers["Host"].flatMap(Self.validHost)
        if trustForwardedHeaders {
            let forwarded = request.headers.values(for: "Forwarded").last.map(Self.lastForwardedElement) ?? [:]
            let proto = forwarded["proto"] ?? request.headers.values(for: "X-Forwarded-Proto").last.map(Self.lastListEntry)
            if let proto = proto.map({ ASCIICase.lowercased($0.utf8) }), proto == "http" || proto == "https" { scheme = proto }
            let forwardedHost = forwarded["host"] ?? request.headers.values(for: "X-Forwarded-Host").last.map(Self.lastListEntry)
            if let valid = forwardedHost.flatMap(Self.validHost) { host = valid }
        }
        guard let host else { return nil }
        return scheme + "://" + host
    }

    /// `host[:port]` lower-cased when it is a DNS name, a dotted IPv4 address or a bracketed IPv6
    /// literal with an optional port of 1–5 digits; nil otherwise. Compared as bytes.
    static func validHost(_ value: String) -> String? {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= 261 else { return nil }
        var hostEnd = bytes.count
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1,
                  bytes[1..<close].allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
                return nil
            }
            hostEnd = close + 1
        } else {
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) { hostEnd = colon }
            let name = bytes[0..<hostEnd]
            guard !name.isEmpty, name.count <= 253, name.first != UInt8(ascii: "."), name.first != UInt8(ascii: "-"),
                  name.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) else {
                return nil
            }
        }
        if hostEnd < bytes.count {
            let port = bytes[(hostEnd + 1)...]
            guard bytes[hostEnd] == UInt8(ascii: ":"), !port.isEmpty, port.count <= 5,
                  port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        }
        return ASCIICase.lowercased(bytes)
    }

    /// The last element of a `Forwarded` value as lower-cased parameter names → unquoted values.
    static func lastForwardedElement(_ value: String) -> [String: String] {
        var out: [String: String] = [:]
        let element = Array(value.utf8).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).last ?? []
        for pair in element.split(separator: UInt8(ascii: ";")) {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = ASCIICase.lowercased(trimmed(pair[pair.startIndex..<equals]))
            var raw = trimmed(pair[(equals + 1)...])
            if raw.count >= 2, raw.first == UInt8(ascii: "\""), raw.last == UInt8(ascii: "\"") {
                raw = raw.dropFirst().dropLast()
            }
            out[name] = String(decoding: raw, as: UTF8.self)
        }
        return out
    }

    /// The last entry of a comma-separated header value, trimmed.
    static func lastListEntry(_ value: String) -> String {
        let last = Array(value.utf8).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).last ?? []
        return String(decoding: trimmed(last), as: UTF8.self)
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = bytes
        while let b = s.first, b == 0x20 || b == 0x09 { s = s.dropFirst() }
        while let b = s.last, b == 0x20 || b == 0x09 { s = s.dropLast() }
        return s
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }
}

extension AlmanacConfiguration {
    /// `server.publicBaseUrl` and `server.trustForwardedHeaders` for the books routes.
    public var publicLinks: PublicLinks {
        PublicLinks(baseURL: server.publicBaseURL, trustForwardedHeaders: server.http.trustForwardedHeaders)
    }
}
