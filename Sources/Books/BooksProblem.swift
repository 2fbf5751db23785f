import Base

/// A problem the books endpoints answer with, as the domain describes it: what kind of failure
/// (which decides the status), its stable slug (docs/problems.md), title and detail. The HTTP
/// layer turns it into an RFC 9457 document with its type URIs (`BooksProblems`), as it does
/// for Rates' `RatesInputError`; the domain never learns the problem format.
public struct BooksProblem: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// 400: the input is not an ISBN.
        case malformed
        /// 404: no provider knows the book or has its cover.
        case notFound
    }

    public var kind: Kind
    public var slug: String
    public var title: String
    public var detail: String

    /// How the HTTP layer writes a problem's bytes, handed to `BooksService` because a
    /// not-found answer is cached as the bytes it is served as.
    public typealias Encoder = @Sendable (BooksProblem) -> [UInt8]

    public static func invalidISBN(_ input: String, _ error: ISBNError) -> BooksProblem {
        BooksProblem(kind: .malformed, slug: "invalid-isbn", title: "Invalid ISBN",
                     detail: "\(quoted(input)) is not a valid ISBN: \(error.description).")
    }

    /// Cached for `books.notFoundTtlSeconds` (docs/problems.md#book-not-found).
    public static func bookNotFound(_ isbn: ISBN) -> BooksProblem {
        BooksProblem(kind: .notFound, slug: "book-not-found", title: "Book not found",
                     detail: "No configured provider knows ISBN \(isbn.isbn13).")
    }

    /// No cover: the book has no cover URL at all, or (`providerAnswered`) its URL answered
    /// "no such image" (cached like a not-found book).
    public static func coverNotFound(_ isbn: ISBN, providerAnswered: Bool) -> BooksProblem {
        BooksProblem(kind: .notFound, slug: "cover-not-found", title: "Cover not found",
                     detail: providerAnswered ? "The provider has no cover image for ISBN \(isbn.isbn13)."
                         : "No configured provider has a cover image for ISBN \(isbn.isbn13).")
    }

    /// Client input echoed in a detail: shortened, so a 4 KiB path does not come back whole.
    public static func quoted(_ input: String) -> String {
        "'\(EchoedText.clipped(input))'"
    }

    /// Parses an ISBN from a path segment or query value, or the problem saying why not.
    public static func parse(_ input: String) -> Result<ISBN, BooksProblem> {
        do {
            return .success(try ISBN(parsing: input))
        } catch {
            return .failure(invalidISBN(input, error))
        }
    }

    /// `parse(_:)` on UTF-8 bytes, such as a path parameter as the router captured it: a valid
    /// ISBN is read without making a `String` of the input; the problem quotes it as text.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ISBN, BooksProblem> {
        do {
            return .success(try ISBN(parsing: bytes))
        } catch {
            return .failure(invalidISBN(String(decoding: bytes, as: UTF8.self), error))
        }
    }
}
