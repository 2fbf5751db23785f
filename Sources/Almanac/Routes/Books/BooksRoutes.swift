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
        let failures = ProblemMapping.books(logger: logger)
        let google = failures.inGoogleEnvelope
        let books = CachedEndpoint<ISBN, CacheLookup<BookAnswer>>(
            failures: failures, fresh: { service.cachedBook($0) }, load: { try await service.book($0) }) { lookup, _, _ in
            bookResponse(lookup)
        }
        router.get("/v1/books", public: true) { request, _ in batch(request, service: service, failures: failures) }
        router.get("/v1/books/{isbn}", public: true) { request, parameters in
            books.answer(request) { try BooksProblems.isbn(parameters, "isbn") }
        }
        let covers = coverEndpoint(service, failures: failures)
        router.get("/v1/books/{isbn}/cover", public: true) { request, parameters in
            covers.answer(request) { try BooksProblems.isbn(parameters, "isbn") }
        }
        let search = searchEndpoint(service, failures: failures)
        router.get("/v1/books/search", public: true) { request, _ in
            search.answer(request) { try NativeSearch(parameter: request.query) }
        }
        let volumes = VolumesEndpoints(service, links: links, failures: google)
        router.get("/books/v1/volumes", public: true) { request, _ in volumes.answer(request) }
        let volume = volumeEndpoint(service, links: links, failures: google)
        router.get("/books/v1/volumes/{id}", public: true) { request, parameters in
            volume.answer(request, parameters["id"] ?? "")
        }
        router.writeProblems(under: "/books/v1/", with: GoogleErrorEnvelope.response)
    }

    /// `HTTPCaching.strongETag(validator:)` (no variant: `"<validator>"`), its bytes copied
    /// into the new string: a book's 13-character validator then makes a 15-byte string held
    /// inline, where interpolation cost a cached book hit ~600 instructions.
    static func quoted(_ validator: String) -> String {
        var validator = validator
        return validator.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count + 2) { buffer in
                buffer[0] = UInt8(ascii: "\"")
                var index = 0
                while index < bytes.count {
                    buffer[index + 1] = bytes[index]
                    index += 1
                }
                buffer[index + 1] = UInt8(ascii: "\"")
                return index + 2
            }
        }
    }

    static let jsonType = "application/json; charset=utf-8"
    static let problemType = "application/problem+json"

    /// A cached answer as served: 200 with the book, or the cached 404 problem, both with the
    /// cache headers (the 404 is the one error that is not `no-store`, docs/problems.md).
    static func bookResponse(_ lookup: CacheLookup<BookAnswer>) -> HTTPResponse {
        let found = lookup.value.isFound
        return HTTPCaching.response(
            body: lookup.value.body, contentType: found ? jsonType : problemType,
            etag: quoted(lookup.validator),
            freshness: CacheFreshness(lookup), status: found ? .ok : .notFound)
    }
}
