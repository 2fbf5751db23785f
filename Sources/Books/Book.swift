/// What almanac knows about one book, merged from its providers.
///
/// Absent facts are nil or empty rather than guessed. `coverURL` is the upstream image address
/// and stays inside the service: clients see `/v1/books/{isbn13}/cover`, so images are fetched
/// over https, only from configured providers' hosts, and cached.
public struct Book: Sendable, Equatable {
    public var isbn: ISBN
    public var title: String?
    public var subtitle: String?
    public var authors: [String]
    public var publisher: String?
    /// As the provider wrote it: `2004`, `2004-05`, `2004-05-01` or `May 2004`.
    public var publishedDate: String?
    public var pageCount: Int?
    /// BCP 47 / ISO 639 code as the provider sent it, e.g. `en`.
    public var language: String?
    public var description: String?
    public var categories: [String]
    /// Upstream cover image URL (https, on a provider's host); never shown to clients as is.
    public var coverURL: String?
    /// The provider whose answer named `coverURL`: a failed cover fetch is labelled by it.
    public var coverSource: String?
    /// Providers whose answers were merged into this book, in configured order.
    public var sources: [String]
    /// Google's own id of the volume Google answered with, when Google's answer was merged in:
    /// the Google-compatible rendering then carries it, as Google would, instead of an id almanac
    /// mints (`VolumeID`). Only a well-formed Google id (`GoogleVolumeJSON.isVolumeID`) is kept.
    public var googleVolumeID: String?

    public init(isbn: ISBN, title: String? = nil, subtitle: String? = nil, authors: [String] = [],
                publisher: String? = nil, publishedDate: String? = nil, pageCount: Int? = nil,
                language: String? = nil, description: String? = nil, categories: [String] = [],
                coverURL: String? = nil, coverSource: String? = nil, sources: [String] = [],
                googleVolumeID: String? = nil) {
        self.isbn = isbn
        self.title = title
        self.subtitle = subtitle
        self.authors = authors
        self.publisher = publisher
        self.publishedDate = publishedDate
        self.pageCount = pageCount
        self.language = language
        self.description = description
        self.categories = categories
        self.coverURL = coverURL
        self.coverSource = coverURL == nil ? nil : coverSource ?? sources.first
        self.sources = sources
        self.googleVolumeID = googleVolumeID
    }

    public var isbn13: String { isbn.isbn13 }
    /// nil for 979-prefixed books.
    public var isbn10: String? { isbn.isbn10 }
    /// The `source` field clients see: provider names joined with `+`, e.g.
    /// `google-books+open-library`.
    public var source: String { sources.joined(separator: "+") }
    /// The public cover path, or nil when no provider has an image.
    public var coverPath: String? { coverURL == nil ? nil : "/v1/books/\(isbn13)/cover" }
}
