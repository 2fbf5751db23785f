import HTTPClient
import Upstream

/// Open Library's Books API (`GET {base}/api/books?bibkeys=ISBN:{isbn13}&format=json&jscmd=data`,
/// docs/books.md "Providers, fallback and merge"): free and keyless, the fallback when Google's quota runs out.
public struct OpenLibraryProvider: BooksProvider, DescribedProvider {
    /// Open Library asks API users for about one request a second. Covers come from
    /// `coversBaseUrl`, and from the Internet Archive while that is the real covers host.
    public static let descriptor = ProviderDescriptor(
        id: "open-library", defaultBaseURL: "https://openlibrary.org",
        defaultBudget: ProviderBudget(maxRequestsPerSecond: 1))
    public static let kind = BooksProviderKind(descriptor) { baseURL, c in OpenLibraryProvider(baseURL: baseURL, settings: c.openLibrary) }

    public var baseURL: String
    public var settings: BooksConfiguration.OpenLibrary

    public var coverEntries: Set<HostPolicy.Entry> { CoverHostPolicy.entries(forCoversBaseURL: settings.coversBaseURL) }

    public init(baseURL: String = OpenLibraryProvider.descriptor.defaultBaseURL,
                settings: BooksConfiguration.OpenLibrary = .init()) {
        self.baseURL = baseURL
        self.settings = settings
    }

    public func request(for isbn: ISBN) -> UpstreamRequest {
        let url = BaseURL.trimmed(baseURL)
            + "/api/books?bibkeys=ISBN:" + isbn.isbn13 + "&format=json&jscmd=data"
        return UpstreamRequest(url: url, headers: [UpstreamHeader("Accept", "application/json")], provider: name)
    }

    public func lookup(_ isbn: ISBN, client: any HTTPClient) async throws -> Book? {
        try await fetch(request(for: isbn), client: client) { body throws(UpstreamError) in try decode(body, isbn: isbn) }
    }

    /// The book under `ISBN:{isbn13}` (or, defensively, `ISBN:{isbn10}`); `{}` is not found.
    public func decode(_ body: [UInt8], isbn: ISBN) throws(UpstreamError) -> Book? {
        let answer = try UpstreamJSON.decode([String: Record].self, from: body, provider: name)
        guard let record = answer["ISBN:" + isbn.isbn13] ?? isbn.isbn10.flatMap({ answer["ISBN:" + $0] }) else {
            return nil
        }
        return Book(
            isbn: isbn,
            title: record.title.nonEmpty,
            subtitle: record.subtitle.nonEmpty,
            authors: Self.names(record.authors),
            publisher: Self.names(record.publishers).first,
            publishedDate: record.publish_date.nonEmpty,
            pageCount: record.number_of_pages.flatMap { $0 > 0 ? $0 : nil },
            language: nil,
            description: nil,
            categories: Self.names(record.subjects),
            coverURL: coverURL(record.cover),
            sources: [name])
    }

    /// The largest cover, re-based onto `coversBaseURL` (only its `/b/…` path is taken from the
    /// answer, so the host is never one an upstream response chose) with `default=false`, or
    /// Open Library answers a blank 1×1 image instead of a 404 when it has none.
    func coverURL(_ cover: Cover?) -> String? {
        guard let cover, let url = cover.large.nonEmpty ?? cover.medium.nonEmpty ?? cover.small.nonEmpty,
              let path = UpstreamURL.pathAndQuery(of: url), path.utf8.starts(with: "/b/".utf8) else { return nil }
        let end = path.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? path.endIndex
        let withoutQuery = path[..<end]
        return BaseURL.trimmed(settings.coversBaseURL) + withoutQuery + "?default=false"
    }

    static func names(_ list: [Named]?) -> [String] {
        (list ?? []).compactMap { $0.name.nonEmpty }
    }

    // MARK: - Wire shape (`jscmd=data`, only the fields almanac reads)

    // Field names are Open Library's.
    struct Record: Decodable {
        var title: String?
        var subtitle: String?
        var authors: [Named]?
        var publishers: [Named]?
        var publish_date: String?
        var number_of_pages: Int?
        var subjects: [Named]?
        var cover: Cover?
    }

    struct Named: Decodable {
        var name: String?
    }

    struct Cover: Decodable {
        var small: String?
        var medium: String?
        var large: String?
    }
}
