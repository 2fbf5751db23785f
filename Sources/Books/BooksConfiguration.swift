/// A books upstream almanac knows how to ask, by its config name (`books.providers`).
public enum BooksProviderID: String, Sendable, CaseIterable, Equatable {
    case googleBooks = "google-books"
    case openLibrary = "open-library"
}

/// `books.*` configuration (docs/books.md "Configuration"); every default is the documented one.
public struct BooksConfiguration: Sendable, Equatable {
    /// Asked in this order; a not-found or a failure falls through to the next.
    public var providers: [BooksProviderID] = [.googleBooks, .openLibrary]
    /// Freshness of a found book.
    public var ttlSeconds: Double = 86_400
    /// Freshness of "no provider knows this ISBN" (cached 404), shorter because catalogues grow.
    public var notFoundTtlSeconds: Double = 3_600
    /// How long past expiry an answer may still be served while it is refreshed (SWR / SIE).
    public var staleSeconds: Double = 604_800
    public var googleBooks = GoogleBooks()
    public var openLibrary = OpenLibrary()
    /// Largest cover image fetched (passed to the client as `maxResponseBytes`).
    public var maxCoverBytes: Int = 2_097_152

    public init() {}

    public struct GoogleBooks: Sendable, Equatable {
        public var baseUrl: String = "https://www.googleapis.com"
        /// Sent as `&key=`: with it, quota is the project's own instead of the shared anonymous
        /// pool that the seed app kept exhausting. Redacted from logs.
        public var apiKey: String?
        /// ISO 3166-1 alpha-2 code sent as `&country=`; Google needs one when it cannot place the
        /// server's IP address.
        public var country: String?
        public init() {}
    }

    public struct OpenLibrary: Sendable, Equatable {
        public var baseUrl: String = "https://openlibrary.org"
        /// Where cover images are fetched; Open Library's cover paths are re-based onto it.
        public var coversBaseUrl: String = "https://covers.openlibrary.org"
        public init() {}
    }
}
