import HTTPClient
import Upstream

/// One upstream catalogue that can answer "what book is this ISBN?".
///
/// Providers only translate: a canonical ISBN into one upstream request, and its JSON into a
/// `Book`. Fallback, merging and caching belong to `BooksService`.
public protocol BooksProvider: Sendable {
    /// Config and metrics name, e.g. `google-books`.
    var name: String { get }
    /// Where its API is (the origin its answers' covers may also come from).
    var baseURL: String { get }
    /// Cover origins beyond `baseURL`'s (Google's thumbnail hosts, Open Library's covers host),
    /// for `CoverHostPolicy`.
    var coverEntries: Set<HostPolicy.Entry> { get }
    /// The book, or nil when this provider does not know the ISBN. Throws `UpstreamError` when
    /// the upstream failed or answered something that is not its documented shape (the
    /// detail names the provider and the field).
    func lookup(_ isbn: ISBN, client: any HTTPClient) async throws -> Book?
}

extension BooksProvider {
    public var coverEntries: Set<HostPolicy.Entry> { [] }

    /// The answer to `request`, decoded by `decode`, or the failure (with the redacted URL for
    /// the log line). Fails unless the upstream said 200: a 429 (quota) or a 5xx is a failure to
    /// fall through, never a "not found" to cache.
    func fetch(_ request: UpstreamRequest, client: any HTTPClient,
               decode: ([UInt8]) throws(UpstreamError) -> Book?) async throws -> Book? {
        let response = try await client.get(request)
        do throws(UpstreamError) {
            try UpstreamSuccess.require(response, provider: name)
            return try decode(response.body)
        } catch {
            throw error.at(request.redactedURL)
        }
    }
}

extension ProviderChain<Book> {
    /// Books providers in configured order, merged while the book is incomplete (`BookMerge`):
    /// the first provider that finds the book gives its base, later ones fill only what is
    /// missing. A not-found falls through; `nil` only when every provider said not found.
    public init(books providers: [any BooksProvider], isbn: ISBN, client: any HTTPClient, steward: Steward? = nil) {
        self.init(providers.map { provider in
            ProviderChain.Provider(name: provider.name) { client in try await provider.lookup(isbn, client: client) }
        }, client: client, steward: steward, mergingUntil: BookMerge.isComplete, merge: BookMerge.merge)
    }
}
