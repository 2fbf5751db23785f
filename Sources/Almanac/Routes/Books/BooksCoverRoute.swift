import Books
import Cache
import HTTPServer

extension BooksRoutes {
    /// `GET /v1/books/{isbn}/cover`: the image bytes with the upstream's image type, cached.
    static func cover(_ request: HTTPRequest, isbnText: String, service: BooksService, logger: Logger?) -> HTTPResponseFuture {
        let isbn: ISBN
        switch BooksProblems.parse(isbnText) {
        case let .success(parsed): isbn = parsed
        case let .failure(problem): return .ready(problem.response)
        }
        if let hit = service.cachedCover(isbn) { return .ready(coverResponse(hit, request: request)) }
        return .pending {
            do {
                switch try await service.cover(isbn) {
                case let .cover(lookup):
                    return coverResponse(lookup, request: request)
                case let .bookNotFound(lookup):
                    return bookResponse(lookup, request: request)
                case .noCover:
                    return BooksProblems.problem(.coverNotFound(isbn, providerAnswered: false)).response
                }
            } catch {
                return BooksProblems.problem(for: error, requestID: request.requestID, logger: logger).response
            }
        }
    }

    /// `nosniff`: the bytes are served as the vetted image type and nothing else.
    static func coverResponse(_ lookup: CacheLookup<CoverAnswer>, request: HTTPRequest) -> HTTPResponse {
        let answer = lookup.value
        var response = HTTPCaching.response(
            for: request, body: answer.body, contentType: answer.contentType,
            etag: HTTPCaching.strongETag(validator: lookup.validator),
            freshness: HTTPCaching.Freshness(lookup), status: answer.image == nil ? .notFound : .ok)
        response.headers.set("X-Content-Type-Options", "nosniff")
        return response
    }
}
