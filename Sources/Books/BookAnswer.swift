import Base
import Cache

/// The cached answer to "what book is this ISBN?" (namespace `books`, keyed by ISBN-13):
/// found or not found, with both renderings (bytes, rendered once) and one validator.
public struct BookAnswer: CacheValue, Equatable {
    public let isbn: ISBN
    /// nil: every provider said not found (served as a cached 404).
    public let book: Book?
    /// The `/v1/books/{isbn}` body: the book, or the 404 problem.
    public let body: [UInt8]
    /// The Google-compatible `/books/v1/volumes` body.
    public let volumesBody: [UInt8]
    public let cacheValidator: String

    /// Renders both bodies once (`BooksRenderer`); a not-found is the `book-not-found`
    /// problem, written by the HTTP layer's `problemEncoder`.
    public init(isbn: ISBN, book: Book?, problemEncoder: BooksProblem.Encoder) {
        self.init(isbn: isbn, book: book,
                  body: book.map { Array(BooksRenderer.bookJSON($0).utf8) } ?? problemEncoder(.bookNotFound(isbn)),
                  volumesBody: Array(BooksRenderer.volumesJSON(book).utf8))
    }

    /// An answer rendered before, e.g. by another replica (`init(sharedCacheBytes:)`).
    init(isbn: ISBN, book: Book?, body: [UInt8], volumesBody: [UInt8]) {
        self.isbn = isbn
        self.book = book
        self.body = body
        self.volumesBody = volumesBody
        var digest = ContentDigest()
        digest.combine(bytes: body)
        digest.combine(bytes: volumesBody)
        self.cacheValidator = digest.hex
    }

    /// Both renderings, plus the `Book` itself, whose strings weigh about what its JSON does.
    public var cacheCost: Int { 2 * body.count + volumesBody.count + 256 }
}

/// The cached cover of one book (namespace `covers`, keyed by ISBN-13).
public struct CoverAnswer: CacheValue, Equatable {
    /// The image bytes, or nil when the upstream has no image for the URL the book carries.
    public let image: [UInt8]?
    /// `image/jpeg`, `image/png`, …; for a missing image, the 404 problem's type.
    public let contentType: String
    /// The image, or the 404 problem body.
    public let body: [UInt8]
    public let cacheValidator: String

    public static func image(_ bytes: [UInt8], contentType: String) -> CoverAnswer {
        CoverAnswer(image: bytes, contentType: contentType, body: bytes)
    }

    static let missingContentType = "application/problem+json"

    public static func missing(body: [UInt8]) -> CoverAnswer {
        CoverAnswer(image: nil, contentType: missingContentType, body: body)
    }

    init(image: [UInt8]?, contentType: String, body: [UInt8]) {
        self.image = image
        self.contentType = contentType
        self.body = body
        var digest = ContentDigest()
        digest.combine(bytes: Array(contentType.utf8))
        digest.combine(bytes: body)
        self.cacheValidator = digest.hex
    }

    public var cacheCost: Int { body.count + 128 }
}
