import Books
import Cache
import HTTPServer

extension BooksRoutes {
    /// Google-Books-compatible `GET /books/v1/volumes?q=isbn:X` (or a bare ISBN, as the seed app
    /// sent barcodes): clients written for Google change only their base URL. Not found is 200
    /// with `totalItems: 0`, as Google answers; any other query is a 400 problem.
    static func volumes(_ request: HTTPRequest, service: BooksService, links: PublicLinks, logger: Logger?) -> HTTPResponseFuture {
        let isbn: ISBN
        switch volumesQuery(request.query("q")) {
        case let .success(parsed): isbn = parsed
        case let .failure(problem): return .ready(problem.response)
        }
        if let hit = service.cachedBook(isbn) { return .ready(volumesResponse(hit, request: request, links: links)) }
        return .pending {
            do {
                return volumesResponse(try await service.book(isbn), request: request, links: links)
            } catch {
                return BooksProblems.problem(for: error, requestID: request.requestID, logger: logger).response
            }
        }
    }

    /// `isbn:<ISBN>` (prefix in any case), or text that can only be meant as an ISBN (digits,
    /// `X`, hyphens, spaces). Anything else (`intitle:`, free text) is not served here.
    static func volumesQuery(_ q: String?) -> Result<ISBN, Problem> {
        guard let q, !q.trimmingASCIIWhitespace().isEmpty else {
            return .failure(BooksProblems.badRequest(
                "Query parameter q is required: almanac answers q=isbn:<ISBN> or a bare ISBN."))
        }
        let text = String(q.trimmingASCIIWhitespace())
        // Compared as bytes: `lowercased()` and `dropFirst` work on grapheme clusters, which a
        // combining mark after the colon would merge with it.
        if text.hasASCIIPrefixIgnoringCase("isbn:") {
            return BooksProblems.parse(String(decoding: text.utf8.dropFirst(5), as: UTF8.self))
        }
        if text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x20 || $0 == 0x58 || $0 == 0x78 }) {
            return BooksProblems.parse(text)
        }
        return .failure(BooksProblems.badRequest(
            "Only ISBN queries are supported: q=isbn:<ISBN> or a bare ISBN, got \(BooksProblem.quoted(text))."))
    }

    /// Always 200 (`totalItems: 0` when not found), with the cache headers; the ETag differs
    /// from `/v1/books`' because the bytes do, and per link base for the same reason.
    /// A book with a cover needs a base for its `imageLinks` (`PublicLinks`): a request whose
    /// `Host` is not a valid host (and no `server.publicBaseUrl`) gets a 400.
    static func volumesResponse(_ lookup: CacheLookup<BookAnswer>, request: HTTPRequest, links: PublicLinks) -> HTTPResponse {
        let template = lookup.value.volumesBody
        guard VolumesLinks.hasLinks(template) else {
            return HTTPCaching.response(
                for: request, body: template, contentType: jsonType,
                etag: HTTPCaching.strongETag(validator: lookup.validator, variant: "books#volumes"),
                freshness: CacheFreshness(lookup))
        }
        guard let base = links.base(for: request) else {
            return BooksProblems.badRequest(
                "The Host header is not a valid host, so no absolute cover link can be written; send a valid Host "
                    + "or set server.publicBaseUrl.").response
        }
        var response = HTTPCaching.response(
            for: request, body: VolumesLinks.fill(template, base: base), contentType: jsonType,
            etag: HTTPCaching.strongETag(validator: lookup.validator, variant: "books#volumes " + base),
            freshness: CacheFreshness(lookup))
        if let vary = links.varyingHeaders { response.headers.set("Vary", vary) }
        return response
    }
}
