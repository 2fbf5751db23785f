import Cache
import HTTPClient

/// The cache key of a search page: its normalized form (`VolumeSearchQuery.normalized`), so
/// searches that differ only in spelling (operator case, spacing, parameter order, defaults
/// written out, a client's `key`) share one entry. In the shared layer the key is that text
/// percent-encoded: printable ASCII, no spaces, as Redis keys should be.
public struct VolumeSearchKey: SharedCacheKey {
    public let normalized: String

    public init(_ query: VolumeSearchQuery) { self.normalized = query.normalized }

    public var sharedCacheKeyBytes: [UInt8] { Array(UpstreamURL.percentEncoded(normalized).utf8) }
}
