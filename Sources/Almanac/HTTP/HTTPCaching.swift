import Base
import Cache
import HTTP1
import Web
import Synchronization

/// Turns a cache lookup and its rendered bytes into the response a client sees (docs/cache.md "What a client sees"):
/// `X-Cache`, `Age`, `Cache-Control: public, max-age=<freshness left>`, a strong `ETag`,
/// `Cache-Status` (RFC 9211), and `304 Not Modified` when `If-None-Match` matches.
///
/// It only adds headers around bytes that were rendered once and stored, so a hit costs a
/// few header strings and no JSON encoding.
public enum HTTPCaching {
    /// The cache's name in `Cache-Status` (RFC 9211 §2).
    public static let cacheName = "almanac"

    /// The gzip twins of every stored representation, shared by all routes.
    public static let gzipVariants = GzipVariants()

    /// A strong entity tag (RFC 9110 §8.8.3) for one representation derived from a cached
    /// value: the value's validator plus a digest of what distinguishes this representation
    /// (endpoint and normalized parameters). Same value + same variant → same bytes → same tag.
    public static func strongETag(validator: String, variant: String = "") -> String {
        if variant.isEmpty { return "\"\(validator)\"" }
        return "\"\(validator)-\(ContentDigest.hex(of: variant))\""
    }

    /// The response for a cached representation, or 304 when the client already has it.
    ///
    /// - Parameters:
    ///   - status: 200 normally; 404 for a cached "no such book" answer.
    ///   - contentType: e.g. `application/json; charset=utf-8`, an image type for covers.
    ///
    /// A body of 1 KiB or more (not an image) has a gzip twin (`GzipVariants`): a client whose
    /// `Accept-Encoding` allows gzip gets it with `Content-Encoding: gzip` and the twin's own
    /// strong ETag, and both representations say `Vary: Accept-Encoding` so shared caches
    /// keep them apart (RFC 9110 §12.5.5).
    public static func response(
        for request: HTTPRequest, body: [UInt8], contentType: String, etag: String,
        freshness: CacheFreshness, status: HTTPStatus = .ok
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        // Its own eight fields (gzip adds two), and room for CORS on a public route (added by the responder).
        headers.reserveCapacity(8 + CORSPolicy.maxAddedFields)
        var body = body
        var etag = etag
        var coding: String?
        if GzipVariants.applies(contentType: contentType, count: body.count) {
            headers.add("Vary", "Accept-Encoding")
            if AcceptEncoding.allowsGzip(request.headers),
               let twin = gzipVariants.variant(of: body, etag: etag) {
                body = twin.body
                etag = twin.etag
                coding = "gzip"
            }
        }
        headers.add("ETag", etag)
        let left = Int(max(0, freshness.freshnessLeftSeconds).rounded(.down))
        let (cacheControl, hitStatus) = FreshnessStrings.values(left)
        headers.add("Cache-Control", cacheControl)
        headers.add("Age", String(Int(max(0, freshness.ageSeconds).rounded(.down))))
        headers.add("X-Cache", freshness.outcome.rawValue)
        // An L1 hit's `Cache-Status` only depends on the (non-negative) seconds left.
        headers.add("Cache-Status", freshness.outcome == .hit && freshness.freshnessLeftSeconds >= 0 && !freshness.shared
                    ? hitStatus : cacheStatus(freshness))
        if status == .ok, let inm = request.headers["If-None-Match"], ifNoneMatch(inm, matches: etag) {
            return HTTPResponse(status: .notModified, headers: headers, body: [])
        }
        headers.add("Content-Type", contentType)
        if let coding { headers.add("Content-Encoding", coding) }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// The `Cache-Control` and hit `Cache-Status` values for a number of seconds left, kept
    /// for the last few values seen: every hit within one second of one entry asks for the
    /// same strings, so they are formatted once rather than per request.
    enum FreshnessStrings {
        private static let recent = Mutex<[(seconds: Int, cacheControl: String, hitStatus: String)]>([])

        static func values(_ seconds: Int) -> (cacheControl: String, hitStatus: String) {
            if let found = recent.withLock({ $0.first { $0.seconds == seconds } }) {
                return (found.cacheControl, found.hitStatus)
            }
            let made = (seconds: seconds, cacheControl: "public, max-age=\(seconds)",
                        hitStatus: "\(HTTPCaching.cacheName); hit; ttl=\(seconds)")
            recent.withLock { list in
                if list.count >= 8 { list.removeFirst() }
                list.append(made)
            }
            return (made.cacheControl, made.hitStatus)
        }
    }

    /// The `Cache-Status` field value (RFC 9211 §2): a hit states its remaining TTL, a stale
    /// answer a TTL of 0, a miss that it was forwarded and stored, and a miss that shared
    /// another request's load also `collapsed` (§2.6; parameter order as in the RFC's §3
    /// example `fwd=uri-miss; collapsed; stored`). A hit from the shared cache (another
    /// replica's load, kept in Redis) says `detail=redis` instead of a TTL (its freshness is in
    /// `Cache-Control: max-age`, as for every hit).
    public static func cacheStatus(_ f: CacheFreshness) -> String {
        switch f.outcome {
        case .hit where f.shared:
            return "\(cacheName); hit; detail=redis"
        case .hit:
            return "\(cacheName); hit; ttl=\(Int(f.freshnessLeftSeconds.rounded(.down)))"
        case .stale:
            return "\(cacheName); hit; ttl=0; detail=stale-while-revalidate"
        case .miss:
            let forwarded = f.collapsed ? "fwd=uri-miss; collapsed" : "fwd=uri-miss"
            return "\(cacheName); \(forwarded); stored; ttl=\(Int(f.freshnessLeftSeconds.rounded(.down)))"
        }
    }

    /// `If-None-Match` evaluation (RFC 9110 §13.1.2): `*` or any listed tag that matches by
    /// weak comparison.
    public static func ifNoneMatch(_ fieldValue: String, matches etag: String) -> Bool {
        let target = opaque(etag)
        for tag in fieldValue.commaSeparatedItems() {
            if tag.utf8.elementsEqual("*".utf8) || opaque(tag).elementsEqual(target) { return true }
        }
        return false
    }

    /// The tag without a weak `W/` prefix, as bytes (entity tags are compared octet by octet).
    private static func opaque<S: StringProtocol>(_ tag: S) -> Substring.UTF8View {
        let bytes = Substring(tag).utf8
        return bytes.starts(with: "W/".utf8) ? bytes.dropFirst(2) : bytes
    }
}

extension StringProtocol {
    /// The items of a comma-separated list (`a, b,,c`), split at the byte `,` and trimmed of
    /// spaces and tabs, empty items dropped. Never split by `Character`: `,` followed by
    /// U+0301 is one grapheme cluster, which `split(separator: ",")` would not split at.
    func commaSeparatedItems() -> [Substring] {
        Substring(self).utf8.split(separator: UInt8(ascii: ","))
            .map { Substring($0).trimmingASCIIWhitespace() }
            .filter { !$0.isEmpty }
    }
}
