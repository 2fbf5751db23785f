import Base
import Cache

/// Turns answers into the bytes clients get, once, when an answer is cached: every hit is then
/// served from these bytes with no encoding. The HTTP layer (module `Almanac`) supplies it, so
/// this module never learns HTTP's problem format or the Google-compatible shape's details.
public struct BookRendering: Sendable {
    /// `GET /v1/books/{isbn}` body of a found book.
    public var book: @Sendable (Book) -> [UInt8]
    /// Body of the cached 404 (a problem document) for an ISBN no provider knows.
    public var notFound: @Sendable (ISBN) -> [UInt8]
    /// `GET /books/v1/volumes` body: one item, or `totalItems: 0` when `book` is nil.
    public var volumes: @Sendable (Book?) -> [UInt8]
    /// Body of the cached 404 when a book's cover URL answers "no such image".
    public var coverNotFound: @Sendable (ISBN) -> [UInt8]

    public init(book: @escaping @Sendable (Book) -> [UInt8],
                notFound: @escaping @Sendable (ISBN) -> [UInt8],
                volumes: @escaping @Sendable (Book?) -> [UInt8],
                coverNotFound: @escaping @Sendable (ISBN) -> [UInt8]) {
        self.book = book
        self.notFound = notFound
        self.volumes = volumes
        self.coverNotFound = coverNotFound
    }
}

/// The cached answer to "what book is this ISBN?" (namespace `books`, keyed by ISBN-13):
/// found or not found, with both renderings and one validator.
public struct BookAnswer: CacheValue, Equatable {
    public let isbn: ISBN
    /// nil: every provider said not found (served as a cached 404).
    public let book: Book?
    /// The `/v1/books/{isbn}` body: the book, or the 404 problem.
    public let body: [UInt8]
    /// The Google-compatible `/books/v1/volumes` body.
    public let volumesBody: [UInt8]
    public let cacheValidator: String

    public init(isbn: ISBN, book: Book?, rendering: BookRendering) {
        self.init(isbn: isbn, book: book, body: book.map(rendering.book) ?? rendering.notFound(isbn),
                  volumesBody: rendering.volumes(book))
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

    public static func missing(body: [UInt8]) -> CoverAnswer {
        CoverAnswer(image: nil, contentType: "application/problem+json", body: body)
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
