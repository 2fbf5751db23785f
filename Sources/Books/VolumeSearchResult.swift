import Base
import Cache

/// One cached page of search results (namespace `book-search`, keyed by the normalized
/// query), or one volume by id (namespace `volumes`, keyed by id: one item, or none when no
/// upstream knows the id).
///
/// The volumes are kept as records, not rendered bytes: the Google-compatible answer needs the
/// request's link base and the native one another shape, so each is rendered per response
/// from the same value, under the one validator.
public struct VolumeSearchResult: CacheValue, Equatable {
    /// How many volumes the upstream said match (all pages).
    public let totalItems: Int
    public let items: [Volume]
    /// The provider that answered: `google-books` or `open-library`.
    public let source: String
    public let cacheValidator: String

    public init(totalItems: Int, items: [Volume], source: String) {
        self.totalItems = max(0, totalItems)
        self.items = items
        self.source = source
        var digest = ContentDigest()
        digest.combine(bytes: Self.recordBytes(totalItems: self.totalItems, items: items, source: source))
        self.cacheValidator = digest.hex
    }

    /// A not-found volume by id.
    public static func notFound(source: String) -> VolumeSearchResult {
        VolumeSearchResult(totalItems: 0, items: [], source: source)
    }

    /// About what the strings weigh, plus the record overhead.
    public var cacheCost: Int {
        256 + items.reduce(0) { total, v in
            total + 256 + v.id.utf8.count + (v.title?.utf8.count ?? 0) + (v.subtitle?.utf8.count ?? 0)
                + (v.description?.utf8.count ?? 0) + (v.infoLink?.utf8.count ?? 0)
                + v.authors.reduce(0) { $0 + $1.utf8.count } + v.categories.reduce(0) { $0 + $1.utf8.count }
        }
    }
}
