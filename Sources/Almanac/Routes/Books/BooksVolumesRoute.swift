import Books
import Cache
import HTTP1

extension BooksRoutes {
    /// Google-Books-compatible `GET /books/v1/volumes?q=…`: clients written for Google change
    /// only their base URL. A `q` that is only `isbn:X` or a bare ISBN is today's lookup (not
    /// found is 200 with `totalItems: 0`, as Google answers); any other query is a search
    /// (`BooksService.search`). Errors are in Google's envelope (`GoogleErrorEnvelope`).
    struct VolumesEndpoints: Sendable {
        let byISBN: CachedEndpoint<ISBN, CacheLookup<BookAnswer>>
        let search: CachedEndpoint<VolumeSearchQuery, CacheLookup<VolumeSearchResult>>

        init(_ service: BooksService, links: PublicLinks, failures: ProblemMapping) {
            byISBN = CachedEndpoint(failures: failures, fresh: { service.cachedBook($0) },
                                    load: { try await service.book($0) }) { lookup, _, request in
                try volumesResponse(lookup, request: request, links: links)
            }
            search = CachedEndpoint(failures: failures, fresh: { service.cachedSearch($0) },
                                    load: { try await service.search($0) }) { lookup, _, request in
                try searchResponse(lookup, request: request, links: links)
            }
        }

        func answer(_ request: HTTPRequest) -> HTTPResponseFuture {
            if let isbnQuery = volumesISBNQuery(request.query("q")) {
                return byISBN.answer(request) { try isbnQuery.get() }
            }
            return search.answer(request) { try VolumeSearchQuery(parameter: request.query) }
        }
    }

    /// nil when `q` is a search; else the ISBN it asks for, or why it is not a valid one. An
    /// ISBN query is `isbn:<ISBN>` alone (prefix in any case), or text that can only be meant
    /// as an ISBN (10 or 13 digits or `X`, with any hyphens and spaces), as the seed app sent
    /// barcodes.
    static func volumesISBNQuery(_ q: String?) -> Result<ISBN, Problem>? {
        guard let q, !q.trimmingASCIIWhitespace().isEmpty else { return nil }
        let text = String(q.trimmingASCIIWhitespace())
        let isbnLike: (UInt8) -> Bool = { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x20 || $0 == 0x58 || $0 == 0x78 }
        // Compared as bytes: `lowercased()` and `dropFirst` work on grapheme clusters, which a
        // combining mark after the colon would merge with it.
        if text.hasASCIIPrefixIgnoringCase("isbn:") {
            let rest = text.utf8.dropFirst(5)
            // `isbn:X intitle:Y` is a search; `isbn:X` alone is a lookup, even a malformed one.
            guard rest.allSatisfy(isbnLike) || !rest.contains(0x20) else { return nil }
            return BooksProblems.parse(String(decoding: rest, as: UTF8.self))
        }
        // A bare barcode has the 10 or 13 characters of an ISBN; other numbers (`1984`) are words to search.
        let significant = text.utf8.filter { $0 != 0x2D && $0 != 0x20 }.count
        if text.utf8.allSatisfy(isbnLike), significant == 10 || significant == 13 {
            return BooksProblems.parse(text)
        }
        return nil
    }

    /// Always 200 (`totalItems: 0` when not found), with the cache headers; the ETag differs
    /// from `/v1/books`' because the bytes do, and per link base for the same reason.
    static func volumesResponse(_ lookup: CacheLookup<BookAnswer>, request: HTTPRequest,
                                links: PublicLinks) throws(InvalidRequest) -> HTTPResponse {
        try linked(lookup.value.volumesBody, lookup: lookup, variant: "books#volumes", request: request, links: links)
    }

    /// A search page in Google's `books#volumes` shape.
    static func searchResponse(_ lookup: CacheLookup<VolumeSearchResult>, request: HTTPRequest,
                               links: PublicLinks) throws(InvalidRequest) -> HTTPResponse {
        let result = lookup.value
        let template = Array(VolumeRenderer.volumesJSON(totalItems: result.totalItems, items: result.items).utf8)
        return try linked(template, lookup: lookup, variant: "books#volumes search", request: request, links: links)
    }

    /// `template` with its absolute links filled in, as a cacheable 200. Links need a base
    /// (`PublicLinks`): a request whose `Host` is not a valid host (and no
    /// `server.publicBaseUrl`) gets a 400.
    static func linked<Value>(_ template: [UInt8], lookup: CacheLookup<Value>, variant: String, request: HTTPRequest,
                              links: PublicLinks) throws(InvalidRequest) -> HTTPResponse {
        guard VolumesLinks.hasLinks(template) else {
            return HTTPCaching.response(
                body: template, contentType: jsonType,
                etag: HTTPCaching.strongETag(validator: lookup.validator, variant: variant),
                freshness: CacheFreshness(lookup))
        }
        guard let base = links.base(for: request) else {
            throw InvalidRequest(
                "The Host header is not a valid host, so no absolute link can be written; send a valid Host "
                    + "or set server.publicBaseUrl.")
        }
        var response = HTTPCaching.response(
            body: VolumesLinks.fill(template, base: base), contentType: jsonType,
            etag: HTTPCaching.strongETag(validator: lookup.validator, variant: variant + " " + base),
            freshness: CacheFreshness(lookup))
        if let vary = links.varyingHeaders { response.headers.set("Vary", vary) }
        return response
    }
}
