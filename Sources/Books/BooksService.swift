import Cache
import HTTPClient
import Upstream

/// Answers ISBN lookups and cover requests from the cache, asking providers on a miss.
///
/// Namespace `books` holds one `BookAnswer` per ISBN-13, found (fresh for `ttlSeconds`) or
/// not found (fresh for `notFoundTtlSeconds`); namespace `covers` holds image bytes. The cache
/// makes concurrent misses for one ISBN share one load, so a burst of lookups costs one
/// request per provider. Upstream failures are thrown as `UpstreamError` and never cached.
public final class BooksService: Sendable {
    public let configuration: BooksConfiguration
    public let coverHosts: CoverHostPolicy
    let client: any HTTPClient
    let steward: Steward?
    /// Asked in this order through `ProviderChain(books:isbn:client:)`.
    let providers: [any BooksProvider]
    let problemEncoder: BooksProblem.Encoder
    let books: CacheNamespace<ISBN, BookAnswer>
    let covers: CacheNamespace<ISBN, CoverAnswer>
    /// Search pages by normalized query (`BooksService+Search`).
    let searches: CacheNamespace<VolumeSearchKey, VolumeSearchResult>
    /// Volumes by Google id or by a minted work id (`BooksService+Search`).
    let volumes: CacheNamespace<String, VolumeSearchResult>

    /// - Parameters:
    ///   - problemEncoder: how a problem becomes bytes (the HTTP layer's `BooksProblems.encode`),
    ///     for the not-found answers cached as the bytes they are served as; bodies are `BooksRenderer`'s.
    ///   - providers: overrides the ones named by `configuration.providers` (tests, new
    ///     catalogues); the cover allow-list still follows the configuration.
    public init(configuration: BooksConfiguration, client: any HTTPClient, cache: CacheStore,
                problemEncoder: @escaping BooksProblem.Encoder, providers: [any BooksProvider]? = nil, steward: Steward? = nil) {
        self.configuration = configuration
        self.coverHosts = CoverHostPolicy(configuration: configuration)
        self.client = client
        self.problemEncoder = problemEncoder
        self.steward = steward
        self.providers = providers ?? configuration.makeProviders()
        self.books = cache.namespace("books", keyType: ISBN.self, valueType: BookAnswer.self)
        self.covers = cache.namespace("covers", keyType: ISBN.self, valueType: CoverAnswer.self)
        self.searches = cache.namespace("book-search", keyType: VolumeSearchKey.self, valueType: VolumeSearchResult.self)
        self.volumes = cache.namespace("volumes", keyType: String.self, valueType: VolumeSearchResult.self)
    }

    /// Provider names in the order they are asked.
    public var providerNames: [String] { providers.map(\.name) }

    // MARK: - Books

    /// A fresh cached answer, synchronously, or nil: lets the HTTP layer answer hits with no
    /// task hop.
    public func cachedBook(_ isbn: ISBN) -> CacheLookup<BookAnswer>? {
        books.fresh(isbn)
    }

    /// The answer for `isbn`, from the cache or the providers. Throws `UpstreamError` when no
    /// provider found it and at least one failed.
    public func book(_ isbn: ISBN) async throws -> CacheLookup<BookAnswer> {
        try await books.value(for: isbn) { [self] in
            let book = try await chain(for: isbn).answer(background: CacheRefresh.isBackground)
            return CacheLoad(value: BookAnswer(isbn: isbn, book: book, problemEncoder: problemEncoder),
                             ttlSeconds: book == nil ? configuration.notFoundTtlSeconds : configuration.ttlSeconds,
                             staleSeconds: configuration.staleSeconds)
        }
    }

    /// Asks the providers directly, bypassing the cache (diagnostics and tests).
    public func findUncached(_ isbn: ISBN) async throws -> Book? {
        try await chain(for: isbn).answer()
    }

    func chain(for isbn: ISBN) -> ProviderChain<Book> {
        ProviderChain(books: providers, isbn: isbn, client: client, steward: steward)
    }

    // MARK: - Covers

    /// What a cover request resolved to.
    public enum CoverResult: Sendable {
        /// The image, or a cached "the upstream has no image" (`image == nil`, a 404).
        case cover(CacheLookup<CoverAnswer>)
        /// No provider knows the book: serve the book's cached 404.
        case bookNotFound(CacheLookup<BookAnswer>)
        /// The book is known but no provider has a cover for it.
        case noCover(Book)
    }

    /// A fresh cached cover, synchronously, or nil.
    public func cachedCover(_ isbn: ISBN) -> CacheLookup<CoverAnswer>? {
        covers.fresh(isbn)
    }

    /// The cover for `isbn`: looks the book up (cached), then fetches its cover URL (cached),
    /// only from `coverHosts` (every redirect hop too), at most `maxCoverBytes`, and only if the answer is an image.
    ///
    /// With a steward, the whole request (book lookup, then the image) ends by
    /// `upstream.requestDeadlineMs`: the image fetch gets `upstream.timeoutMs` or what is left,
    /// both on the steward's clock.
    public func cover(_ isbn: ISBN) async throws -> CoverResult {
        let deadline = steward.map { UpstreamDeadline(clock: $0.clock, afterMilliseconds: $0.configuration.requestDeadlineMs) }
        let bookLookup = try await book(isbn)
        guard let book = bookLookup.value.book else { return .bookNotFound(bookLookup) }
        guard let url = book.coverURL else { return .noCover(book) }
        // Failures are labelled by the provider whose answer named this image.
        let provider = book.coverSource ?? book.sources.first ?? "covers"
        let lookup = try await covers.value(for: isbn) { [self] in
            let answer: CoverAnswer
            do throws(UpstreamError) {
                answer = try await fetchCover(url, isbn: isbn, provider: provider, deadline: deadline)
            } catch {
                steward?.reportFailure(error)
                throw error
            }
            return CacheLoad(value: answer,
                             ttlSeconds: answer.image == nil ? configuration.notFoundTtlSeconds : configuration.ttlSeconds,
                             staleSeconds: configuration.staleSeconds)
        }
        return .cover(lookup)
    }

    func fetchCover(_ url: String, isbn: ISBN, provider: String,
                    deadline: UpstreamDeadline? = nil) async throws(UpstreamError) -> CoverAnswer {
        if case .failure(let refusal) = coverHosts.check(url) {
            throw UpstreamError(.invalidURL, provider: provider, detail: "cover URL refused by the cover host policy",
                                diagnostic: refusal.description, url: url)
        }
        let response: UpstreamResponse
        do {
            let request = UpstreamRequest(
                url: url, headers: [UpstreamHeader("Accept", "image/*")], provider: provider,
                maxResponseBytes: configuration.maxCoverBytes, redirects: .within(coverHosts.policy))
            // Image hosts are not the APIs' quotas: no budget or cooldown, only the deadline.
            if let deadline, let steward {
                let own = UpstreamDeadline(clock: deadline.clock, afterMilliseconds: steward.configuration.providerTimeoutMs)
                response = try await client.get(request, deadline: deadline.earlier(own), gate: OpenGate())
            } else {
                response = try await client.get(request)
            }
        } catch let error as UpstreamError {
            throw error
        } catch {
            throw UpstreamError(.other, provider: provider, detail: "cover fetch failed", diagnostic: String(describing: error), url: url)
        }
        if response.status == 404 || response.status == 410 {
            return .missing(body: problemEncoder(.coverNotFound(isbn, providerAnswered: true)))
        }
        guard response.status == 200 else {
            throw UpstreamError(.other, provider: provider, detail: "cover answered HTTP \(response.status)", url: url)
        }
        if !response.effectiveURL.isEmpty, !coverHosts.allows(response.effectiveURL) {
            throw UpstreamError(.redirected, provider: provider, detail: "cover was redirected off the allowed origins",
                                url: url)
        }
        guard response.body.count <= configuration.maxCoverBytes else {
            throw UpstreamError(.tooLarge, provider: provider, detail: "cover exceeds \(configuration.maxCoverBytes) bytes", url: url)
        }
        guard !response.body.isEmpty else {
            throw UpstreamError(.malformed, provider: provider, detail: "cover body is empty", url: url)
        }
        // The bytes decide the type; the upstream's Content-Type is only shown in the detail.
        guard let type = CoverMediaType.sniffed(response.body) else {
            throw UpstreamError(.malformed, provider: provider,
                                detail: "cover is not an image (no JPEG, PNG, GIF or WebP signature; labelled "
                                    + "\(CoverMediaType.shown(response.header("Content-Type"))))",
                                url: url)
        }
        return .image(response.body, contentType: type)
    }
}
