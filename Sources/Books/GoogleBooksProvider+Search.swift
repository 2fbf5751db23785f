import HTTPClient
import Upstream

/// Google's search and volume-by-id calls (docs/books.md "Search"), beside the ISBN lookup:
/// `GET {base}/books/v1/volumes?q=…&startIndex=…&maxResults=…` and
/// `GET {base}/books/v1/volumes/{id}`, with almanac's own key only.
extension GoogleBooksProvider {
    /// The search request: the normalized `q`, paging, and the filters a client set to other
    /// than Google's defaults.
    public func searchRequest(for query: VolumeSearchQuery) -> UpstreamRequest {
        var url = BaseURL.trimmed(baseURL) + "/books/v1/volumes"
        url = UpstreamURL.appendingQuery(url, "q", query.normalizedQ)
        url = UpstreamURL.appendingQuery(url, "startIndex", String(query.startIndex))
        url = UpstreamURL.appendingQuery(url, "maxResults", String(query.maxResults))
        if query.orderBy != .relevance { url = UpstreamURL.appendingQuery(url, "orderBy", query.orderBy.rawValue) }
        if query.printType != .all { url = UpstreamURL.appendingQuery(url, "printType", query.printType.rawValue) }
        if let language = query.langRestrict { url = UpstreamURL.appendingQuery(url, "langRestrict", language) }
        if query.projection != .full { url = UpstreamURL.appendingQuery(url, "projection", query.projection.rawValue) }
        return keyed(url)
    }

    /// `GET {base}/books/v1/volumes/{id}`; `id` is checked by `GoogleVolumeJSON.isVolumeID` first.
    public func volumeRequest(id: String) -> UpstreamRequest {
        keyed(BaseURL.trimmed(baseURL) + "/books/v1/volumes/" + UpstreamURL.percentEncoded(id))
    }

    /// One page of results; Google's own ids.
    public func search(_ query: VolumeSearchQuery, client: any HTTPClient) async throws -> VolumeSearchResult {
        let request = searchRequest(for: query)
        let response = try await client.get(request)
        do throws(UpstreamError) {
            try UpstreamSuccess.require(response, provider: name)
            return try GoogleVolumeJSON.page(response.body, provider: name, limit: query.maxResults)
        } catch {
            throw error.at(request.redactedURL)
        }
    }

    /// The volume, or a not-found result when Google answers 404 (cached like a not-found book).
    public func volume(id: String, client: any HTTPClient) async throws -> VolumeSearchResult {
        let request = volumeRequest(id: id)
        let response = try await client.get(request)
        if response.status == 404 { return .notFound(source: name) }
        do throws(UpstreamError) {
            try UpstreamSuccess.require(response, provider: name)
            let volume = try GoogleVolumeJSON.volume(response.body, provider: name)
            guard volume.id.utf8.elementsEqual(id.utf8) else {
                throw UpstreamError(.malformed, provider: name, detail: "field id: not the volume asked for")
            }
            return VolumeSearchResult(totalItems: 1, items: [volume], source: name)
        } catch {
            throw error.at(request.redactedURL)
        }
    }

    private func keyed(_ url: String) -> UpstreamRequest {
        var url = url
        if let key = settings.apiKey, !key.isEmpty { url = UpstreamURL.appendingQuery(url, "key", key) }
        if let country = settings.country, !country.isEmpty { url = UpstreamURL.appendingQuery(url, "country", country) }
        return UpstreamRequest(url: url, headers: [UpstreamHeader("Accept", "application/json")],
                               provider: name, secretQueryParameters: ["key"])
    }
}
