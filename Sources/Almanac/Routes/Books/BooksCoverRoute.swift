import Books
import Cache
import HTTP1

extension BooksRoutes {
    /// `GET /v1/books/{isbn}/cover`: the image bytes with the upstream's image type, cached; a
    /// book no provider knows is its cached 404, a book without a cover a 404 `cover-not-found`.
    static func coverEndpoint(_ service: BooksService, failures: ProblemMapping) -> CachedEndpoint<ISBN, BooksService.CoverResult> {
        CachedEndpoint(failures: failures, fresh: { service.cachedCover($0).map(BooksService.CoverResult.cover) },
                       load: { try await service.cover($0) }) { result, isbn, _ in
            switch result {
            case let .cover(lookup): return coverResponse(lookup)
            case let .bookNotFound(lookup): return bookResponse(lookup)
            case .noCover: throw BooksProblem.coverNotFound(isbn, providerAnswered: false)
            }
        }
    }

    /// `nosniff`: the bytes are served as the vetted image type and nothing else.
    static func coverResponse(_ lookup: CacheLookup<CoverAnswer>) -> HTTPResponse {
        let answer = lookup.value
        var response = HTTPCaching.response(
            body: answer.body, contentType: answer.contentType,
            etag: HTTPCaching.strongETag(validator: lookup.validator),
            freshness: CacheFreshness(lookup), status: answer.image == nil ? .notFound : .ok)
        response.headers.set("X-Content-Type-Options", "nosniff")
        return response
    }
}
