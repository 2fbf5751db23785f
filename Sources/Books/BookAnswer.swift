import Base
import Cache

/// The cached answer to "what book is this ISBN?" (namespace `books`, keyed by ISBN-13):
/// found or not found, as one stored rendering and one validator.
///
/// An entry keeps the `/v1/books/{isbn}` body (served as is on every hit: no copy, no encoding)
/// and, for a found book, a few bytes of what the body does not show (`BookExtras`). The `Book`
/// and the Google-compatible volumes body are derived from those when a route asks for them,
/// so a cached book costs about its answer's bytes rather than a graph of strings and a second
/// body (docs/cache.md "A book entry").
public struct BookAnswer: CacheValue, Equatable {
    public let isbn: ISBN
    /// The `/v1/books/{isbn}` body: the book, or the 404 problem.
    public let body: [UInt8]
    /// nil: every provider said not found (served as a cached 404); otherwise `BookExtras` bytes.
    let extras: [UInt8]?

    /// Renders the body once (`BooksRenderer`); a not-found is the `book-not-found` problem,
    /// written by the HTTP layer's `problemEncoder`.
    public init(isbn: ISBN, book: Book?, problemEncoder: BooksProblem.Encoder) {
        self.init(isbn: isbn, book: book, notFoundBody: book == nil ? problemEncoder(.bookNotFound(isbn)) : [])
    }

    /// A found book's answer renders its body; a not-found answer keeps `notFoundBody` (a problem
    /// rendered before, e.g. by another replica: `init(sharedCacheBytes:)`).
    init(isbn: ISBN, book: Book?, notFoundBody: [UInt8]) {
        self.isbn = isbn
        if let book {
            let body = Array(BooksRenderer.bookJSON(book).utf8)
            self.body = body
            self.extras = BookExtras.bytes(for: book, isbn: isbn, body: body)
        } else {
            self.body = notFoundBody
            self.extras = nil
        }
    }

    /// Whether a provider knew the book (200), or not (the cached 404).
    public var isFound: Bool { extras != nil }

    /// The book, read back from the stored body and extras (a JSON parse: for the routes that
    /// need its facts, never for a `/v1/books/{isbn}` hit); nil when not found.
    public var book: Book? {
        guard let extras else { return nil }
        return BookExtras.book(isbn: isbn, body: body, bytes: extras)
    }

    /// The Google-compatible `/books/v1/volumes` body, rendered from `book` on each call.
    public var volumesBody: [UInt8] { Array(BooksRenderer.volumesJSON(book).utf8) }

    /// A digest of what the entry stores, as 13 characters (`ContentDigest.compactText`): short
    /// enough to live inside the `String` itself, so an entry's validator costs no allocation.
    public var cacheValidator: String {
        var digest = ContentDigest()
        digest.combine(bytes: body)
        if let extras { digest.combine(bytes: extras) }
        return digest.compactText
    }

    /// What the entry holds on the heap: the body and the extras, each with its array header.
    public var cacheCost: Int { body.count + (extras.map { $0.count + 32 } ?? 0) + 32 }
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
