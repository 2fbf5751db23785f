import HTTPClient
import Upstream

/// Open Library's search (`GET {base}/search.json?…`, docs/books.md "Search"): the fallback
/// when Google fails, is skipped or answers 429, and the source of the works almanac mints
/// volume ids for.
extension OpenLibraryProvider {
    /// The fields almanac reads, asked for by name so the answer stays small.
    static let searchFields = "key,title,subtitle,author_name,publisher,first_publish_year,isbn,number_of_pages_median,language,subject,cover_i"

    /// Google's keywords as Open Library's parameters (`intitle:` → `title=`, …); words,
    /// phrases, `lccn:` and `oclc:` stay in `q`. Several terms of one keyword are joined by spaces.
    public func searchRequest(for query: VolumeSearchQuery) -> UpstreamRequest {
        var url = BaseURL.trimmed(baseURL) + "/search.json"
        let inQ = query.terms.filter { term in
            term.keyword == nil || term.keyword == .lccn || term.keyword == .oclc
        }
        if !inQ.isEmpty { url = UpstreamURL.appendingQuery(url, "q", inQ.map(\.normalized).joined(separator: " ")) }
        let mapped: [(VolumeSearchQuery.Keyword, String)] = [
            (.intitle, "title"), (.inauthor, "author"), (.inpublisher, "publisher"), (.subject, "subject"), (.isbn, "isbn"),
        ]
        for (keyword, parameter) in mapped {
            let values = query.values(of: keyword)
            if !values.isEmpty { url = UpstreamURL.appendingQuery(url, parameter, values.map(\.text).joined(separator: " ")) }
        }
        return request(url, offset: query.startIndex, limit: query.maxResults, newest: query.orderBy == .newest)
    }

    /// One work by its key (`q=key:/works/OL…W`), to answer a volume id minted for it.
    public func workRequest(number: UInt64) -> UpstreamRequest {
        let url = UpstreamURL.appendingQuery(BaseURL.trimmed(baseURL) + "/search.json", "q", "key:/works/OL\(number)W")
        return request(url, offset: 0, limit: 1, newest: false)
    }

    public func search(_ query: VolumeSearchQuery, client: any HTTPClient) async throws -> VolumeSearchResult {
        try await searched(searchRequest(for: query), limit: query.maxResults, client: client)
    }

    /// The work as a one-volume result, or not found. A work that now has an ISBN-13 keeps
    /// the id it was asked by.
    public func work(number: UInt64, id: String, client: any HTTPClient) async throws -> VolumeSearchResult {
        let page = try await searched(workRequest(number: number), limit: 1, client: client)
        guard var volume = page.items.first else { return .notFound(source: name) }
        volume.id = id
        return VolumeSearchResult(totalItems: 1, items: [volume], source: name)
    }

    private func request(_ url: String, offset: Int, limit: Int, newest: Bool) -> UpstreamRequest {
        var url = UpstreamURL.appendingQuery(url, "fields", Self.searchFields)
        url = UpstreamURL.appendingQuery(url, "offset", String(offset))
        url = UpstreamURL.appendingQuery(url, "limit", String(limit))
        if newest { url = UpstreamURL.appendingQuery(url, "sort", "new") }
        return UpstreamRequest(url: url, headers: [UpstreamHeader("Accept", "application/json")], provider: name)
    }

    private func searched(_ request: UpstreamRequest, limit: Int, client: any HTTPClient) async throws -> VolumeSearchResult {
        let response = try await client.get(request)
        do throws(UpstreamError) {
            try UpstreamSuccess.require(response, provider: name)
            return try OpenLibrarySearchJSON.page(response.body, provider: name, limit: limit)
        } catch {
            throw error.at(request.redactedURL)
        }
    }
}
