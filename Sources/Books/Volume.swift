/// One volume as the Google-compatible API and the native search answer it: a book found by a
/// search or by id, which (unlike `Book`) may have no ISBN at all.
///
/// `id` is Google's volume id when the record came from Google, else one almanac minted
/// (`VolumeID`). Upstream image URLs never reach a client: `hasImage` only says the upstream
/// had one, and a volume with an ISBN-13 then links almanac's own cover route.
public struct Volume: Sendable, Equatable {
    public var id: String
    public var isbn: ISBN?
    public var title: String?
    public var subtitle: String?
    public var authors: [String]
    public var publisher: String?
    public var publishedDate: String?
    public var description: String?
    public var pageCount: Int?
    public var categories: [String]
    public var language: String?
    /// The upstream's page about the volume, only when it gave one.
    public var infoLink: String?
    public var hasImage: Bool
    /// The provider (or `+`-joined providers) the record came from.
    public var source: String

    public init(id: String, isbn: ISBN? = nil, title: String? = nil, subtitle: String? = nil, authors: [String] = [],
                publisher: String? = nil, publishedDate: String? = nil, description: String? = nil,
                pageCount: Int? = nil, categories: [String] = [], language: String? = nil, infoLink: String? = nil,
                hasImage: Bool = false, source: String) {
        self.id = id
        self.isbn = isbn
        self.title = title
        self.subtitle = subtitle
        self.authors = authors
        self.publisher = publisher
        self.publishedDate = publishedDate
        self.description = description
        self.pageCount = pageCount
        self.categories = categories
        self.language = language
        self.infoLink = infoLink
        self.hasImage = hasImage
        self.source = source
    }

    /// A looked-up book as a volume: its id is Google's when Google contributed the book (as
    /// Google's own answer to `q=isbn:` would carry), else minted from its ISBN-13.
    public init(book: Book) {
        self.init(id: book.googleVolumeID ?? VolumeID.minted(for: book.isbn), isbn: book.isbn, title: book.title, subtitle: book.subtitle,
                  authors: book.authors, publisher: book.publisher, publishedDate: book.publishedDate,
                  description: book.description, pageCount: book.pageCount, categories: book.categories,
                  language: book.language, hasImage: book.coverURL != nil, source: book.source)
    }

    /// almanac's cover route for this volume, or nil: only an ISBN-13 can be looked up there.
    public var coverPath: String? {
        guard hasImage, let isbn else { return nil }
        return "/v1/books/\(isbn.isbn13)/cover"
    }
}
