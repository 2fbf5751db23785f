import HTTP1

/// Cross-origin resource sharing (the Fetch standard's CORS protocol) for a public, read-only,
/// credential-free API: which web pages on other origins may read the answers of public
/// routes (`Router.Route.isPublic`), and the answer to their preflight `OPTIONS`.
///
/// Rules:
/// - Any origin (`["*"]`, the default): every answer of a public route carries
///   `Access-Control-Allow-Origin: *` and `Access-Control-Expose-Headers`, whether or not the
///   request had an `Origin`. The answer is then the same for every client, so a shared cache
///   may store it without `Vary: Origin`.
/// - A list of origins: every answer carries `Vary: Origin` (as its own field line, which
///   RFC 9110 §5.3 lets caches combine with any other `Vary`); one whose `Origin` is listed
///   gets that origin echoed, byte for byte as the browser sent it, and the exposed headers.
///   An empty list admits no one.
/// - Never `Access-Control-Allow-Credentials`: public answers need no cookies or tokens, and
///   `*` could not be combined with them anyway.
/// - Preflight (`OPTIONS` with `Access-Control-Request-Method`): 204 with
///   `Access-Control-Allow-Methods: GET, HEAD`, the requested headers when every one is
///   safe (`safeRequestHeaders`), and `Access-Control-Max-Age`. A refused preflight (origin not
///   listed, another method, an unsafe header) is a 403 problem saying which, for the
///   developer reading the network panel; the browser refuses it either way.
/// - A plain `OPTIONS` (no `Access-Control-Request-Method`) is 204 with `Allow`.
///
/// Cost on the hit path: with any origin, two fields whose names and values are static
/// strings (no allocation, if the caller reserved room: `maxAddedFields`); with a list, one
/// `Origin` lookup among the request's fields and a comparison per listed origin.
public struct CORSPolicy: Sendable, Equatable {
    /// Who may read.
    public enum Origins: Sendable, Equatable {
        /// Any origin: `Access-Control-Allow-Origin: *`.
        case any
        /// Exactly these serialized origins (normalized by `normalizedOrigin`).
        case only([String])
    }

    public let origins: Origins
    /// How the refused-preflight problem (slug `cors-preflight-refused`) is typed.
    public let problemTypes: ProblemTypes

    /// `allowedOrigins` as configured: `["*"]` means any origin; otherwise every entry must
    /// pass `normalizedOrigin` (entries that do not are ignored; configuration validates first).
    /// `problemTypes` are the application's (`about:blank` by default).
    public init(allowedOrigins: [String], problemTypes: ProblemTypes = .aboutBlank) {
        self.problemTypes = problemTypes
        if allowedOrigins == ["*"] {
            origins = .any
        } else {
            origins = .only(allowedOrigins.compactMap(CORSPolicy.normalizedOrigin))
        }
    }

    /// The methods public routes answer.
    public static let allowedMethods = "GET, HEAD"
    /// `Allow` of a public route (RFC 9110 §10.2.1).
    public static let allow = "GET, HEAD, OPTIONS"
    /// Response headers a page's script may read besides the CORS-safelisted ones: the
    /// caching and tracing headers the API documents.
    public static let exposedHeaders = "ETag, Age, X-Cache, Cache-Status, X-Request-ID"
    /// How long a browser may reuse a preflight answer. Browsers cap it (Chromium at 2 hours,
    /// Firefox at 24); the policy only changes with a restart, so the longest cap is used.
    public static let maxAgeSeconds = 86400
    private static let maxAgeText = String(maxAgeSeconds)

    /// Request headers a preflight may ask for, lower case. "Safe" means: the header only
    /// selects or traces a public, anonymous answer, it never carries a credential, and
    /// almanac treats it the same for every client (or ignores it). So: content negotiation
    /// (`Accept`, `Accept-Language`, `Content-Language`, `Content-Type`), revalidation
    /// (`If-None-Match`, `If-Modified-Since`), cache directives (`Cache-Control`, `Pragma`),
    /// tracing (`X-Request-ID`) and `X-Requested-With` (which some libraries add to every
    /// call). Not safe: `Authorization` and every other credential-bearing or unknown header.
    public static let safeRequestHeaders: [String] = [
        "accept", "accept-language", "content-language", "content-type", "if-none-match",
        "if-modified-since", "cache-control", "pragma", "x-request-id", "x-requested-with",
    ]

    /// The most fields `apply` adds to a response (room a handler reserves up front).
    public static let maxAddedFields = 3

    /// What `apply` adds for any origin, the same on every answer: prepared once
    /// (`PreparedHeaderLines`) and appended as one block, so a hit neither builds nor checks
    /// these two fields per request. Nil only if the block were refused (it is not: both are
    /// constants a test writes), and then `apply` adds the fields one by one.
    static let anyOriginFields = PreparedHeaderLines([
        HTTPHeaders.Field(name: "Access-Control-Allow-Origin", value: "*"),
        HTTPHeaders.Field(name: "Access-Control-Expose-Headers", value: exposedHeaders),
    ])

    /// Adds the CORS fields to the answer of a public route.
    public func apply(to headers: inout HTTPHeaders, requestHeaders: HTTPHeaders) {
        switch origins {
        case .any:
            if let prepared = CORSPolicy.anyOriginFields {
                headers.append(prepared: prepared)
            } else {
                headers.add("Access-Control-Allow-Origin", "*")
                headers.add("Access-Control-Expose-Headers", CORSPolicy.exposedHeaders)
            }
        case let .only(list):
            headers.add("Vary", "Origin")
            if let origin = admitted(CORSPolicy.soleOrigin(requestHeaders), list) {
                headers.add("Access-Control-Allow-Origin", origin)
                headers.add("Access-Control-Expose-Headers", CORSPolicy.exposedHeaders)
            }
        }
    }

    /// The answer to `OPTIONS` on a public route: a preflight's grant or refusal, or a plain
    /// `Allow`.
    public func answerOptions(_ request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Allow", CORSPolicy.allow)
        guard let method = request.headers["Access-Control-Request-Method"] else {
            apply(to: &headers, requestHeaders: request.headers)
            return HTTPResponse(status: .noContent, headers: headers)
        }
        headers.add("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
        switch preflight(origin: CORSPolicy.soleOrigin(request.headers), method: method,
                         requestedHeaders: request.headers.values(for: "Access-Control-Request-Headers")) {
        case let .refused(why):
            var response = Problem(status: .forbidden, slug: "cors-preflight-refused", title: "CORS preflight refused",
                                   detail: why, types: problemTypes).response
            for field in headers { response.headers.add(field.name, field.value) }
            return HTTPResponse(status: response.status, headers: response.headers, body: response.body)
        case let .granted(origin, allowedHeaders):
            headers.add("Access-Control-Allow-Origin", origin)
            headers.add("Access-Control-Allow-Methods", CORSPolicy.allowedMethods)
            if !allowedHeaders.isEmpty { headers.add("Access-Control-Allow-Headers", allowedHeaders) }
            headers.add("Access-Control-Max-Age", CORSPolicy.maxAgeText)
            return HTTPResponse(status: .noContent, headers: headers)
        }
    }

    /// A preflight's outcome.
    public enum Preflight: Sendable, Equatable {
        /// The `Access-Control-Allow-Origin` value and the `Access-Control-Allow-Headers`
        /// value ("" when none were asked for).
        case granted(origin: String, headers: String)
        /// Why not, in words for the developer.
        case refused(String)
    }

    /// Decides a preflight from its `Origin`, `Access-Control-Request-Method` and every
    /// `Access-Control-Request-Headers` line.
    public func preflight(origin: String?, method: String, requestedHeaders: [String]) -> Preflight {
        let allowOrigin: String
        switch origins {
        case .any:
            allowOrigin = "*"
        case let .only(list):
            guard let admitted = admitted(origin, list) else {
                return .refused("The origin \(origin.map { "\"\(CORSPolicy.clip($0))\"" } ?? "(none)") may not read this API from a browser: it is not among the origins this server allows.")
            }
            allowOrigin = admitted
        }
        guard method == "GET" || method == "HEAD" else {
            return .refused("The method \"\(CORSPolicy.clip(method))\" is not allowed: this API is read-only (GET, HEAD).")
        }
        var names: [String] = []
        for line in requestedHeaders {
            for item in line.split(separator: ",") {
                let name = item.trimmingASCIIWhitespace().asciiLowercased()
                if name.isEmpty { continue }
                guard CORSPolicy.safeRequestHeaders.contains(name) else {
                    return .refused("The request header \"\(CORSPolicy.clip(name))\" is not allowed in cross-origin requests; allowed: \(CORSPolicy.safeRequestHeaders.joined(separator: ", ")).")
                }
                if !names.contains(name) { names.append(name) }
            }
        }
        return .granted(origin: allowOrigin, headers: names.joined(separator: ", "))
    }

    /// The request's `Origin`, or nil when it has none or more than one field line. A browser
    /// sends exactly one (RFC 6454 §7); with two, which one a reader takes is a guess (the
    /// first here, the last in a proxy), so neither is admitted.
    static func soleOrigin(_ headers: HTTPHeaders) -> String? {
        let values = headers.values(for: "Origin")
        return values.count == 1 ? values[0] : nil
    }

    /// The request's `Origin` when it is in `list` (ASCII case-insensitively), as sent.
    private func admitted(_ origin: String?, _ list: [String]) -> String? {
        guard let origin else { return nil }
        for allowed in list where allowed.equalsIgnoringASCIICase(origin) { return origin }
        return nil
    }

    private static func clip(_ text: String) -> String {
        text.unicodeScalars.count > 100 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(100))) + "…" : text
    }

    /// A configured origin in the form browsers send it (RFC 6454 §6.2): `scheme://host[:port]`,
    /// lower case, http or https, the default port left out; nil for anything else (a path or
    /// trailing slash, userinfo, a query, `null`, non-ASCII: internationalized hosts in
    /// their `xn--` form).
    public static func normalizedOrigin(_ text: String) -> String? {
        let lower = text.asciiLowercased()
        let scheme: String
        if lower.utf8.starts(with: "https://".utf8) {
            scheme = "https"
        } else if lower.utf8.starts(with: "http://".utf8) {
            scheme = "http"
        } else {
            return nil
        }
        let rest = Array(lower.utf8.dropFirst(scheme.utf8.count + 3))
        var hostEnd = rest.count
        var host: ArraySlice<UInt8>
        if rest.first == UInt8(ascii: "[") {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return nil }
            let inner = rest[1..<close]
            guard inner.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return nil }
            hostEnd = close + 1
            host = rest[0..<hostEnd]
        } else {
            hostEnd = rest.firstIndex(of: UInt8(ascii: ":")) ?? rest.count
            host = rest[0..<hostEnd]
            guard !host.isEmpty, host.allSatisfy({ isDigit($0) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }),
                  host.first != UInt8(ascii: "."), host.last != UInt8(ascii: "."), host.first != UInt8(ascii: "-") else { return nil }
        }
        var port = ""
        if hostEnd < rest.count {
            guard rest[hostEnd] == UInt8(ascii: ":") else { return nil }
            let digits = rest[(hostEnd + 1)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy(isDigit),
                  let number = Int(String(decoding: digits, as: UTF8.self)), (1...65535).contains(number) else { return nil }
            let isDefault = (scheme == "https" && number == 443) || (scheme == "http" && number == 80)
            port = isDefault ? "" : ":\(number)"
        }
        return scheme + "://" + String(decoding: host, as: UTF8.self) + port
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x61 && b <= 0x66) }
}
