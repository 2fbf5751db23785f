import Base
import HTTPClient
import Upstream

/// Google Books' volume JSON (a search page, or one volume by id) read into `Volume`s, strictly:
/// every item must carry a well-formed id, numbers must be numbers, and a page holds no more
/// items than were asked for. Image URLs are only noted (`hasImage`), never kept.
enum GoogleVolumeJSON {
    /// Google's ids are 12 characters of `[A-Za-z0-9_-]`; up to 64 are accepted, nothing else.
    static func isVolumeID(_ id: String) -> Bool {
        let bytes = id.utf8
        return (1...64).contains(bytes.count) && bytes.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
        }
    }

    static func page(_ body: [UInt8], provider: String, limit: Int) throws(UpstreamError) -> VolumeSearchResult {
        let page = try UpstreamJSON.decode(Page.self, from: body, provider: provider)
        let items = page.items ?? []
        guard items.count <= limit else {
            throw UpstreamError(.malformed, provider: provider, detail: "field items: \(items.count) items, \(limit) asked for")
        }
        var volumes: [Volume] = []
        for (index, item) in items.enumerated() {
            volumes.append(try volume(item, provider: provider, field: "items[\(index)]"))
        }
        return VolumeSearchResult(totalItems: max(page.totalItems ?? 0, volumes.count), items: volumes, source: provider)
    }

    static func volume(_ body: [UInt8], provider: String) throws(UpstreamError) -> Volume {
        try volume(try UpstreamJSON.decode(Item.self, from: body, provider: provider), provider: provider, field: "(root)")
    }

    static func volume(_ item: Item, provider: String, field: String) throws(UpstreamError) -> Volume {
        guard let id = item.id, isVolumeID(id) else {
            throw UpstreamError(.malformed, provider: provider, detail: "field \(field).id: missing or not a volume id")
        }
        let info = item.volumeInfo
        let identifiers = info?.industryIdentifiers ?? []
        let isbn = ["ISBN_13", "ISBN_10"].lazy.compactMap { type in
            identifiers.lazy.filter { $0.type.map { Array($0.utf8) == Array(type.utf8) } ?? false }
                .compactMap { $0.identifier.flatMap { try? ISBN(parsing: $0) } }.first
        }.first
        let links = info?.imageLinks
        return Volume(
            id: id, isbn: isbn, title: info?.title.nonEmpty, subtitle: info?.subtitle.nonEmpty,
            authors: GoogleBooksProvider.names(info?.authors), publisher: info?.publisher.nonEmpty,
            publishedDate: info?.publishedDate.nonEmpty, description: info?.description.nonEmpty,
            pageCount: info?.pageCount.flatMap { $0 > 0 ? $0 : nil }, categories: GoogleBooksProvider.names(info?.categories),
            language: info?.language.nonEmpty, infoLink: info?.infoLink.nonEmpty.flatMap(httpLink),
            hasImage: (links?.thumbnail.nonEmpty ?? links?.smallThumbnail.nonEmpty) != nil, source: provider)
    }

    /// Only an `http(s)://` link is passed on to clients (never `javascript:` or a bare path).
    static func httpLink(_ url: String) -> String? {
        guard url.hasASCIIPrefixIgnoringCase("https://") || url.hasASCIIPrefixIgnoringCase("http://"),
              url.utf8.count <= 2048, !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        return url
    }

    // MARK: - Wire shape (only the fields almanac reads)

    struct Page: Decodable {
        var totalItems: Int?
        var items: [Item]?
    }

    struct Item: Decodable {
        var id: String?
        var volumeInfo: GoogleBooksProvider.VolumeInfo?
    }
}
