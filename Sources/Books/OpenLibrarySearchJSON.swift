import HTTPClient
import Upstream

/// Open Library's `search.json` answer read into `Volume`s, strictly: every doc needs its work
/// key, numbers must be numbers, a page holds no more docs than were asked for.
///
/// A doc with an ISBN-13 (or an ISBN-10, converted) gets the id minted for that ISBN, so
/// the same book found through Google's ISBN path or Open Library's has one id; a doc without
/// gets the id minted for its work. Open Library gives no page link, so no `infoLink`.
enum OpenLibrarySearchJSON {
    /// Subjects are many on Open Library; the first ones are the volume's categories.
    static let maxCategories = 10

    static func page(_ body: [UInt8], provider: String, limit: Int) throws(UpstreamError) -> VolumeSearchResult {
        let page = try UpstreamJSON.decode(Page.self, from: body, provider: provider)
        let docs = page.docs ?? []
        guard docs.count <= limit else {
            throw UpstreamError(.malformed, provider: provider, detail: "field docs: \(docs.count) docs, \(limit) asked for")
        }
        var volumes: [Volume] = []
        for (index, doc) in docs.enumerated() {
            guard let key = doc.key, let work = VolumeID.workNumber(fromKey: key) else {
                throw UpstreamError(.malformed, provider: provider, detail: "field docs[\(index)].key: missing or not a work key")
            }
            let isbn = isbn(in: doc.isbn ?? [])
            guard let id = isbn.map(VolumeID.minted(for:)) ?? VolumeID.minted(forWork: work) else {
                throw UpstreamError(.malformed, provider: provider, detail: "field docs[\(index)].key: work number out of range")
            }
            volumes.append(Volume(
                id: id, isbn: isbn, title: doc.title.nonEmpty, subtitle: doc.subtitle.nonEmpty,
                authors: GoogleBooksProvider.names(doc.author_name),
                publisher: GoogleBooksProvider.names(doc.publisher).first,
                publishedDate: doc.first_publish_year.map(String.init), description: nil,
                pageCount: doc.number_of_pages_median.flatMap { $0 > 0 ? $0 : nil },
                categories: Array(GoogleBooksProvider.names(doc.subject).prefix(maxCategories)),
                language: GoogleBooksProvider.names(doc.language).first, infoLink: nil,
                hasImage: doc.cover_i.map { $0 > 0 } ?? false, source: provider))
        }
        return VolumeSearchResult(totalItems: max(page.numFound ?? 0, volumes.count), items: volumes, source: provider)
    }

    /// The first ISBN-13 that is valid, else the first valid ISBN-10.
    static func isbn(in list: [String]) -> ISBN? {
        let parsed = list.prefix(200).compactMap { text in (try? ISBN(parsing: text)).map { (text.utf8.count, $0) } }
        return (parsed.first { $0.0 == 13 } ?? parsed.first)?.1
    }

    // MARK: - Wire shape (field names are Open Library's)

    struct Page: Decodable {
        var numFound: Int?
        var docs: [Doc]?
    }

    struct Doc: Decodable {
        var key: String?
        var title: String?
        var subtitle: String?
        var author_name: [String]?
        var publisher: [String]?
        var first_publish_year: Int?
        var isbn: [String]?
        var number_of_pages_median: Int?
        var language: [String]?
        var subject: [String]?
        var cover_i: Int?
    }
}
