import HTTPClient
import Upstream

/// `books.*` configuration (docs/books.md "Configuration"). Every default is written once: the
/// plain values here, each provider's base URL and budget in its own file
/// (`BooksProviderKind.descriptor`). Almanac's configuration holds this type as it is.
public struct BooksConfiguration: Sendable, Equatable {
    /// Every provider `providers` may name (the registry, `BooksProviderKind.all`).
    public let kinds: [BooksProviderKind]
    /// Provider ids asked in this order; a not-found or a failure falls through to the next.
    public var providers = ["google-books", "open-library"]
    /// Freshness of a found book.
    public var ttlSeconds: Double = 86_400
    /// Freshness of "no provider knows this ISBN" (cached 404), shorter because catalogues grow.
    public var notFoundTtlSeconds: Double = 3_600
    /// Freshness of a search page (`/books/v1/volumes?q=…`, `/v1/books/search`): searches are
    /// where Google's shared quota runs out first, and their answers change slowly.
    public var searchTtlSeconds: Double = 3_600
    /// How long past expiry an answer may still be served while it is refreshed (SWR / SIE).
    public var staleSeconds: Double = 604_800
    /// Each provider's base URL and budget (`books.<provider>.baseUrl`, …), by id.
    public var endpoints: ProviderEndpoints
    public var googleBooks = GoogleBooks()
    public var openLibrary = OpenLibrary()
    /// Largest cover image fetched (passed to the client as `maxResponseBytes`).
    public var maxCoverBytes: Int = 2_097_152

    public init(kinds: [BooksProviderKind] = BooksProviderKind.all) {
        self.kinds = kinds
        self.endpoints = ProviderEndpoints(kinds.map(\.descriptor))
    }

    /// The configured providers, in order (unknown names are skipped; the loader rejects them).
    public func makeProviders() -> [any BooksProvider] {
        providers.compactMap { id in kinds.first { $0.descriptor.id == id }.map { $0.make(endpoints[id].baseURL, self) } }
    }

    /// Google Books' own settings besides its endpoint.
    public struct GoogleBooks: Sendable, Equatable {
        /// Sent as `&key=`: with it, quota is the project's own instead of the shared anonymous
        /// pool that the seed app kept exhausting. Redacted from logs.
        public var apiKey: String?
        /// ISO 3166-1 alpha-2 code sent as `&country=`; Google needs one when it cannot place the
        /// server's IP address.
        public var country: String?
        public init() {}
    }

    /// Open Library's own settings besides its endpoint.
    public struct OpenLibrary: Sendable, Equatable {
        /// Where cover images are fetched; Open Library's cover paths are re-based onto it.
        public var coversBaseURL = "https://covers.openlibrary.org"
        public init() {}
    }
}

/// A books provider the service can be configured with, built at a base URL with the books
/// configuration (for its own settings, such as Google's `apiKey`).
public typealias BooksProviderKind = ProviderKind<any BooksProvider, BooksConfiguration>

extension ProviderKind where Provider == any BooksProvider, Context == BooksConfiguration {
    /// Every books provider, in documentation order. A new provider joins here (docs/development.md "How to
    /// add a provider").
    public static var all: [BooksProviderKind] { [GoogleBooksProvider.kind, OpenLibraryProvider.kind] }
}
