import Base
import Cache
import HTTP1

/// The vocabulary of cached answers (docs/cache.md "What a client sees"): a cached
/// representation as a response (body + `Representation`), its strong `ETag`, its
/// `Cache-Status` (RFC 9211), and the gzip twins every route shares. The fields themselves are
/// written by the pipeline's steps (`CachingHeadersStep`, after `ConditionalRequestStep` and
/// `ContentCodingStep`).
///
/// Only headers are added around bytes that were rendered once and stored, so a hit costs a
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

    /// The response for a cached representation: its body and what it was rendered from
    /// (`HTTPResponse.representation`), nothing else. The pipeline's steps finish it
    /// (`AlmanacPipeline`): `ContentCodingStep` may swap in the gzip twin, `ConditionalRequestStep`
    /// turns a 200 the client already has into a 304, and `CachingHeadersStep` writes the fields.
    ///
    /// - Parameters:
    ///   - status: 200 normally; 404 for a cached "no such book" answer.
    ///   - contentType: e.g. `application/json; charset=utf-8`, an image type for covers.
    ///
    /// A route adds only its own fields (a `Vary` of its own, `nosniff`); they follow the
    /// caching fields on the wire.
    public static func response(body: [UInt8], contentType: String, etag: String, freshness: CacheFreshness,
                                status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, body: body,
                     representation: Representation(etag: etag, contentType: contentType, freshness: .init(freshness)))
    }

    /// The `Cache-Status` field value (RFC 9211 §2): a hit states its remaining TTL, a stale
    /// answer a TTL of 0, a miss that it was forwarded and stored, and a miss that shared
    /// another request's load also `collapsed` (§2.6; parameter order as in the RFC's §3
    /// example `fwd=uri-miss; collapsed; stored`). A hit from the shared cache (another
    /// replica's load, kept in Redis) says `detail=redis` instead of a TTL (its freshness is in
    /// `Cache-Control: max-age`, as for every hit).
    public static func cacheStatus(_ f: Representation.Freshness) -> String {
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

extension Representation.Freshness {
    /// A cache lookup's freshness in the terms the response carries.
    @inlinable
    public init(_ freshness: CacheFreshness) {
        let outcome: Representation.CacheOutcome
        switch freshness.outcome {
        case .hit: outcome = .hit
        case .miss: outcome = .miss
        case .stale: outcome = .stale
        }
        self.init(outcome: outcome, ageSeconds: freshness.ageSeconds, freshnessLeftSeconds: freshness.freshnessLeftSeconds,
                  collapsed: freshness.collapsed, shared: freshness.shared)
    }
}
