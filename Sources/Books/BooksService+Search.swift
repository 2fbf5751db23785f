import Cache
import HTTPClient
import Upstream

/// Search and volumes by id (docs/books.md "Search", "Volume ids"), cached, single flight and
/// stewarded like book lookups: the same cache store (L1 and the shared layer), the same
/// providers' budgets and cooldowns, since they spend the same upstream quotas.
extension BooksService {
    /// What a volume id resolved to.
    public enum VolumeLookup: Sendable {
        /// A minted ISBN id: the book's cached answer (its `book` nil when no provider knows it).
        case book(CacheLookup<BookAnswer>, id: String)
        /// A Google id or a minted work id: one volume, or none (not found).
        case volume(CacheLookup<VolumeSearchResult>)
    }

    /// A fresh cached page, synchronously, or nil.
    public func cachedSearch(_ query: VolumeSearchQuery) -> CacheLookup<VolumeSearchResult>? {
        searches.fresh(VolumeSearchKey(query))
    }

    /// One page of results: Google first, Open Library when Google fails, is skipped (cooldown,
    /// budget) or answers 429, in the configured providers' order. Cached for
    /// `searchTtlSeconds`; concurrent identical searches share one load.
    public func search(_ query: VolumeSearchQuery) async throws -> CacheLookup<VolumeSearchResult> {
        try await searches.value(for: VolumeSearchKey(query)) { [self] in
            let chain = ProviderChain<VolumeSearchResult>(searchProviders(query), client: client, steward: steward)
            let result = try await chain.firstAnswer(background: CacheRefresh.isBackground)
            return CacheLoad(value: result, ttlSeconds: configuration.searchTtlSeconds, staleSeconds: configuration.staleSeconds)
        }
    }

    /// The volume `id` names, or nil when it cannot name one (not a well-formed id, or a Google
    /// id while Google is not configured): a 404.
    public func volume(id: String) async throws -> VolumeLookup? {
        switch VolumeID.decode(id) {
        case .isbn(let isbn)?:
            return .book(try await book(isbn), id: id)
        case .work(let number)?:
            guard let openLibrary = providers.lazy.compactMap({ $0 as? OpenLibraryProvider }).first else { return nil }
            return .volume(try await cachedVolume(id, provider: openLibrary.name) { client in
                try await openLibrary.work(number: number, id: id, client: client)
            })
        case nil:
            guard GoogleVolumeJSON.isVolumeID(id),
                  let google = providers.lazy.compactMap({ $0 as? GoogleBooksProvider }).first else { return nil }
            return .volume(try await cachedVolume(id, provider: google.name) { client in try await google.volume(id: id, client: client) })
        }
    }

    /// A volume by id through the cache: found for `ttlSeconds`, not found for `notFoundTtlSeconds`.
    private func cachedVolume(_ id: String, provider: String, ask: @escaping @Sendable (any HTTPClient) async throws -> VolumeSearchResult)
        async throws -> CacheLookup<VolumeSearchResult> {
        try await volumes.value(for: id) { [self] in
            let chain = ProviderChain<VolumeSearchResult>([.init(name: provider, ask: ask)], client: client, steward: steward)
            let result = try await chain.firstAnswer(background: CacheRefresh.isBackground)
            return CacheLoad(value: result,
                             ttlSeconds: result.items.isEmpty ? configuration.notFoundTtlSeconds : configuration.ttlSeconds,
                             staleSeconds: configuration.staleSeconds)
        }
    }

    /// The configured providers that can search, in configured order.
    func searchProviders(_ query: VolumeSearchQuery) -> [ProviderChain<VolumeSearchResult>.Provider] {
        providers.compactMap { provider in
            if let google = provider as? GoogleBooksProvider {
                return .init(name: google.name) { client in try await google.search(query, client: client) }
            }
            if let openLibrary = provider as? OpenLibraryProvider {
                return .init(name: openLibrary.name) { client in try await openLibrary.search(query, client: client) }
            }
            return nil
        }
    }
}
