import HTTPClient
import Upstream

/// Google Books volumes search (`GET {base}/books/v1/volumes?q=isbn:{isbn13}`, docs/books.md "Providers, fallback and merge").
///
/// Google's search can return other books first (reprints, sets, books that merely cite the
/// ISBN), so the answer is the item whose `industryIdentifiers` carry this ISBN, never blindly
/// `items[0]`; when none does, the book is not found here and the next provider is asked.
public struct GoogleBooksProvider: BooksProvider, DescribedProvider {
    /// Google APIs' default per-user quota, 100 requests per 100 s → 1 a second. Covers may
    /// also come from Google's thumbnail hosts.
    public static let descriptor = ProviderDescriptor(
        id: "google-books", defaultBaseURL: "https://www.googleapis.com",
        defaultBudget: ProviderBudget(maxRequestsPerSecond: 1))
    public static let kind = BooksProviderKind(descriptor) { baseURL, c in GoogleBooksProvider(baseURL: baseURL, settings: c.googleBooks) }

    public var baseURL: String
    public var settings: BooksConfiguration.GoogleBooks

    public var coverEntries: Set<HostPolicy.Entry> { CoverHostPolicy.googleImageEntries }

    /// Hosts Google serves thumbnails from: `http://` there is upgraded to `https://`, and they
    /// are on the cover allow-list whenever this provider is configured.
    public static let imageHosts: Set<String> = ["books.google.com", "books.googleusercontent.com"]

    public init(baseURL: String = GoogleBooksProvider.descriptor.defaultBaseURL,
                settings: BooksConfiguration.GoogleBooks = .init()) {
        self.baseURL = baseURL
        self.settings = settings
    }

    /// The only URL this provider requests: built from the canonical ISBN-13 and config values.
    public func request(for isbn: ISBN) -> UpstreamRequest {
        var url = BaseURL.trimmed(baseURL) + "/books/v1/volumes?q=isbn:" + isbn.isbn13
        if let key = settings.apiKey, !key.isEmpty { url = UpstreamURL.appendingQuery(url, "key", key) }
        if let country = settings.country, !country.isEmpty {
            url = UpstreamURL.appendingQuery(url, "country", country)
        }
        return UpstreamRequest(url: url, headers: [UpstreamHeader("Accept", "application/json")],
                               provider: name, secretQueryParameters: ["key"])
    }

    public func lookup(_ isbn: ISBN, client: any HTTPClient) async throws -> Book? {
        try await fetch(request(for: isbn), client: client) { body throws(UpstreamError) in try decode(body, isbn: isbn) }
    }

    /// The matching volume in a volumes answer, or nil (not found), with Google's id for it.
    public func decode(_ body: [UInt8], isbn: ISBN) throws(UpstreamError) -> Book? {
        let volumes = try UpstreamJSON.decode(Volumes.self, from: body, provider: name)
        guard let items = volumes.items, !items.isEmpty else { return nil }
        let wanted = Set(([isbn.isbn13] + (isbn.isbn10.map { [$0] } ?? [])).map { Array($0.utf8) })
        let match = items.lazy.compactMap { item in item.volumeInfo.map { (id: item.id, info: $0) } }.first { item in
            (item.info.industryIdentifiers ?? []).contains { wanted.contains(Self.normalized($0.identifier)) }
        }
        guard let (id, info) = match else { return nil }
        let links = info.imageLinks
        return Book(
            isbn: isbn,
            title: info.title.nonEmpty,
            subtitle: info.subtitle.nonEmpty,
            authors: Self.names(info.authors),
            publisher: info.publisher.nonEmpty,
            publishedDate: info.publishedDate.nonEmpty,
            pageCount: info.pageCount.flatMap { $0 > 0 ? $0 : nil },
            language: info.language.nonEmpty,
            description: info.description.nonEmpty,
            categories: Self.names(info.categories),
            coverURL: (links?.thumbnail.nonEmpty ?? links?.smallThumbnail.nonEmpty).map(Self.secured),
            sources: [name],
            // Not a well-formed id → absent: the volume is then given a minted one.
            googleVolumeID: id.flatMap { GoogleVolumeJSON.isVolumeID($0) ? $0 : nil })
    }

    /// Author or category names, trimmed, without blank ones: a `" "` author would otherwise
    /// count as known and keep the next provider's real authors out of the merged book.
    static func names(_ list: [String]?) -> [String] {
        (list ?? []).compactMap { Optional($0).nonEmpty }
    }

    /// `http://books.google.com/…` → `https://…` (the seed app loaded covers in clear text).
    /// Decided on the host as written, so even a URL libcurl will refuse (a space in the query)
    /// is never left in clear text; whether it is fetched is the cover host policy's call.
    static func secured(_ url: String) -> String {
        guard UpstreamURL.isPlainHTTP(url), let host = UpstreamURL.writtenHost(of: url), imageHosts.contains(host) else { return url }
        return UpstreamURL.upgradedToHTTPS(url)
    }

    /// Identifiers as Google writes them (`0-306-40615-2`, lower-case x) compared as digits:
    /// the UTF-8 bytes without `-` and spaces, ASCII letters upper-cased. Bytes, not
    /// `Character`s: `-` followed by a combining mark is one `Character` that is not `-`, and
    /// `String ==` equates canonically equivalent text.
    static func normalized(_ identifier: String?) -> [UInt8] {
        (identifier ?? "").utf8.compactMap { b in
            b == UInt8(ascii: "-") || b == UInt8(ascii: " ") ? nil : (b >= 0x61 && b <= 0x7A ? b - 0x20 : b)
        }
    }

    // MARK: - Wire shape (only the fields almanac reads)

    struct Volumes: Decodable {
        var totalItems: Int?
        var items: [Volume]?
    }

    struct Volume: Decodable {
        /// Google's volume id; kept only when well-formed (`GoogleVolumeJSON.isVolumeID`). An id
        /// that is not even a string is absent too, not a reason to refuse the book's facts.
        var id: String?
        var volumeInfo: VolumeInfo?

        enum CodingKeys: String, CodingKey { case id, volumeInfo }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try? container.decodeIfPresent(String.self, forKey: .id)
            volumeInfo = try container.decodeIfPresent(VolumeInfo.self, forKey: .volumeInfo)
        }
    }

    struct VolumeInfo: Decodable {
        var title: String?
        var subtitle: String?
        var authors: [String]?
        var publisher: String?
        var publishedDate: String?
        var description: String?
        var industryIdentifiers: [Identifier]?
        var pageCount: Int?
        var categories: [String]?
        var language: String?
        var imageLinks: ImageLinks?
        /// Read by search and volume by id (`GoogleVolumeJSON`), not by the ISBN lookup.
        var infoLink: String?
    }

    struct Identifier: Decodable {
        var type: String?
        var identifier: String?
    }

    struct ImageLinks: Decodable {
        var smallThumbnail: String?
        var thumbnail: String?
    }
}
