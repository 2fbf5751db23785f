import Books
import Cache
import HTTP1
import Web

/// The books endpoints (docs/books.md "Endpoints"). Hits are answered `.ready` from the cache's synchronous
/// fresh path, from bytes rendered when the answer was stored; misses and stale answers go
/// `.pending` to `BooksService`.
public enum BooksRoutes {
    /// Registers `GET /v1/books/{isbn}`, `/v1/books/{isbn}/cover`, `/v1/books?isbn=…`,
    /// `/v1/books/search` and the Google-compatible `/books/v1/volumes?q=…` and
    /// `/books/v1/volumes/{id}`, whose errors (unknown routes under `/books/v1/` too) are
    /// written in Google's envelope.
    ///
    /// - Parameters:
    ///   - logger: receives a warn line per upstream failure a client is told about.
    ///   - links: how the Google-compatible `imageLinks` get their absolute base URL.
    public static func register(on router: inout Router, service: BooksService, logger: Logger? = nil,
                                links: PublicLinks = PublicLinks()) {
        router.get("/v1/books", public: true) { request, _ in batch(request, service: service, logger: logger) }
        router.get("/v1/books/{isbn}", public: true) { request, parameters in
            book(request, isbn: BooksProblems.parse(parameters, "isbn"), service: service, logger: logger)
        }
        router.get("/v1/books/{isbn}/cover", public: true) { request, parameters in
            cover(request, isbn: BooksProblems.parse(parameters, "isbn"), service: service, logger: logger)
        }
        router.get("/v1/books/search", public: true) { request, _ in search(request, service: service, logger: logger) }
        router.get("/books/v1/volumes", public: true) { request, _ in volumes(request, service: service, links: links, logger: logger) }
        router.get("/books/v1/volumes/{id}", public: true) { request, parameters in
            volume(request, id: parameters["id"] ?? "", service: service, links: links, logger: logger)
        }
        router.writeProblems(under: "/books/v1/", with: GoogleErrorEnvelope.response)
    }

    static let jsonType = "application/json; charset=utf-8"
    static let problemType = "application/problem+json"

    /// `GET /v1/books/{isbn}`: the book, or its cached 404.
    static func book(_ request: HTTPRequest, isbn parsed: Result<ISBN, Problem>, service: BooksService, logger: Logger?) -> HTTPResponseFuture {
        answer(request, isbn: parsed, logger: logger,
               cached: { service.cachedBook($0).map { bookResponse($0, request: request) } }) { isbn in
            bookResponse(try await service.book(isbn), request: request)
        }
    }

    /// The one shape of the single-ISBN routes: the path's ISBN (its 400 when it is not one),
    /// a fresh cached answer at once (no task hop), else `lookup` as a task, whose failure is
    /// answered as the upstream problem it is.
    static func answer(_ request: HTTPRequest, isbn parsed: Result<ISBN, Problem>, logger: Logger?, cached: (ISBN) -> HTTPResponse?,
                       lookup: @escaping @Sendable (ISBN) async throws -> HTTPResponse) -> HTTPResponseFuture {
        let isbn: ISBN
        switch parsed {
        case let .success(parsed): isbn = parsed
        case let .failure(problem): return .ready(problem.response)
        }
        if let hit = cached(isbn) { return .ready(hit) }
        return .pending {
            do {
                return try await lookup(isbn)
            } catch {
                return BooksProblems.problem(for: error, requestID: request.requestID, logger: logger).response
            }
        }
    }

    /// A cached answer as served: 200 with the book, or the cached 404 problem, both with the
    /// cache headers (the 404 is the one error that is not `no-store`, docs/problems.md).
    static func bookResponse(_ lookup: CacheLookup<BookAnswer>, request: HTTPRequest) -> HTTPResponse {
        let found = lookup.value.book != nil
        return HTTPCaching.response(
            for: request, body: lookup.value.body, contentType: found ? jsonType : problemType,
            etag: HTTPCaching.strongETag(validator: lookup.validator),
            freshness: CacheFreshness(lookup), status: found ? .ok : .notFound)
    }
}
