import Books
import Cache
import HTTP1

extension BooksRoutes {
    /// Native `GET /v1/books/search?q=…&title=&author=&publisher=&subject=&page=&limit=`: the
    /// same search as `/books/v1/volumes?q=…` (one cache, one upstream call per page), answered
    /// in almanac's own shapes: items as `/v1/books/{isbn}` writes a book, errors problem+json.
    static func searchEndpoint(_ service: BooksService,
                               failures: ProblemMapping) -> CachedEndpoint<NativeSearch, CacheLookup<VolumeSearchResult>> {
        CachedEndpoint(failures: failures, fresh: { service.cachedSearch($0.query) },
                       load: { try await service.search($0.query) }) { lookup, parsed, _ in
            parsed.response(lookup)
        }
    }

    /// The native search's parameters as one Google query: `q`'s terms, then `title` as
    /// `intitle:"…"`, `author` as `inauthor:"…"`, and so on; `page` and `limit` as paging.
    struct NativeSearch: Sendable {
        static let fields: [(name: String, keyword: VolumeSearchQuery.Keyword?)] = [
            ("q", nil), ("title", .intitle), ("author", .inauthor), ("publisher", .inpublisher), ("subject", .subject),
        ]
        static let maxPage = 250

        var query: VolumeSearchQuery
        var given: [(String, String?)]
        var page: Int
        var limit: Int

        init(parameter: (String) -> String?) throws(VolumeSearchQuery.Invalid) {
            given = Self.fields.map { ($0.name, parameter($0.name)) }
            var terms: [VolumeSearchQuery.Term] = []
            for (field, value) in zip(Self.fields, given) {
                guard let text = value.1, !text.utf8.allSatisfy(VolumeSearchQuery.isSpace) else { continue }
                if let keyword = field.keyword {
                    // One phrase: the whole value, quotes inside it dropped.
                    let phrase = String(decoding: text.utf8.filter { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
                    terms += try VolumeSearchQuery.parseTerms(keyword.rawValue + ":\"" + phrase + "\"")
                } else {
                    terms += try VolumeSearchQuery.parseTerms(text)
                }
            }
            guard !terms.isEmpty else {
                throw VolumeSearchQuery.Invalid(message: "Give at least one of q, title, author, publisher or subject, e.g. ?title=hobbit.")
            }
            page = try VolumeSearchQuery.integer(parameter("page"), name: "page", default: 1, range: 1...Self.maxPage)
            limit = try VolumeSearchQuery.integer(parameter("limit"), name: "limit", default: VolumeSearchQuery.defaultMaxResults,
                                                  range: 1...VolumeSearchQuery.maxResultsLimit)
            query = VolumeSearchQuery(terms: terms, startIndex: (page - 1) * limit, maxResults: limit)
        }

        /// What besides the cached page shapes the body: paging and the parameters echoed as
        /// given (`title=hobbit` and `q=intitle:"hobbit"` share a page but not their bytes).
        var variant: String {
            "books/search page=\(page) limit=\(limit) " + given.map { "\($0.0)=" + ($0.1.map { "+" + $0 } ?? "-") }.joined(separator: "\u{1F}")
        }

        func response(_ lookup: CacheLookup<VolumeSearchResult>) -> HTTPResponse {
            let result = lookup.value
            let body = VolumeRenderer.searchJSON(query: given, total: result.totalItems, page: page, limit: limit,
                                                 items: result.items, source: result.source)
            return HTTPCaching.response(
                body: Array(body.utf8), contentType: jsonType,
                etag: HTTPCaching.strongETag(validator: lookup.validator, variant: variant),
                freshness: CacheFreshness(lookup))
        }
    }
}
