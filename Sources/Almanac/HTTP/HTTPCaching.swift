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
        var body = body
        var etag = etag
        var gzip = false
        let vary = GzipVariants.applies(contentType: contentType, count: body.count)
        if vary, AcceptEncoding.allowsGzip(request.headers),
           let twin = gzipVariants.variant(of: body, etag: etag) {
            body = twin.body
            etag = twin.etag
            gzip = true
        }
        let left = Int(max(0, freshness.freshnessLeftSeconds).rounded(.down))
        let age = Int(max(0, freshness.ageSeconds).rounded(.down))
        let notModified = ConditionalRequestStep.isNotModified(request: request, status: status, etag: etag)
        // A fresh L1 hit's fields repeat for every hit on this entry within the second.
        let plainHit = freshness.outcome == .hit && freshness.freshnessLeftSeconds >= 0 && !freshness.shared
        func fields() -> [HTTPHeaders.Field] {
            // Its own eight fields (gzip adds two), and room for CORS on a public route (added by the responder).
            var fields: [HTTPHeaders.Field] = []
            fields.reserveCapacity(8 + CORSPolicy.maxAddedFields)
            if vary { fields.append(.init(name: "Vary", value: "Accept-Encoding")) }
            fields.append(.init(name: "ETag", value: etag))
            let (cacheControl, hitStatus) = FreshnessStrings.values(left)
            fields.append(.init(name: "Cache-Control", value: cacheControl))
            fields.append(.init(name: "Age", value: String(age)))
            fields.append(.init(name: "X-Cache", value: freshness.outcome.rawValue))
            fields.append(.init(name: "Cache-Status", value: plainHit ? hitStatus : cacheStatus(freshness)))
            if notModified { return fields }
            fields.append(.init(name: "Content-Type", value: contentType))
            if gzip { fields.append(.init(name: "Content-Encoding", value: "gzip")) }
            return fields
        }
        if plainHit && !notModified,
           let prepared = PreparedCachingFields.prepared(
               for: .init(left: left, age: age, status: status.code, gzip: gzip, vary: vary, etag: etag, contentType: contentType),
               fields: fields) {
            return HTTPResponse(status: status, headers: HTTPHeaders(prepared: prepared, reservingCapacity: CORSPolicy.maxAddedFields),
                                body: body)
        }
        if notModified {
            return HTTPResponse(status: .notModified, headers: HTTPHeaders(fields: fields()), body: [])
        }
        return HTTPResponse(status: status, headers: HTTPHeaders(fields: fields()), body: body)
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
}

