import Books
import Cache
import HTTP1

extension BooksRoutes {
    /// `GET /v1/books/{isbn}/cover`: the image bytes with the upstream's image type, cached.
    static func cover(_ request: HTTPRequest, isbn parsed: Result<ISBN, Problem>, service: BooksService, logger: Logger?) -> HTTPResponseFuture {
        answer(request, isbn: parsed, logger: logger,
               cached: { service.cachedCover($0).map { coverResponse($0, request: request) } }) { isbn in
            switch try await service.cover(isbn) {
            case let .cover(lookup):
                return coverResponse(lookup, request: request)
            case let .bookNotFound(lookup):
                return bookResponse(lookup, request: request)
            case .noCover:
                return BooksProblems.problem(.coverNotFound(isbn, providerAnswered: false)).response
            }
        }
    }

    /// `nosniff`: the bytes are served as the vetted image type and nothing else.
    static func coverResponse(_ lookup: CacheLookup<CoverAnswer>, request: HTTPRequest) -> HTTPResponse {
        let answer = lookup.value
        var response = HTTPCaching.response(
            for: request, body: answer.body, contentType: answer.contentType,
            etag: HTTPCaching.strongETag(validator: lookup.validator),
            freshness: CacheFreshness(lookup), status: answer.image == nil ? .notFound : .ok)
        response.headers.set("X-Content-Type-Options", "nosniff")
        return response
    }
}
