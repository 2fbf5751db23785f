// What every books decoder promises, checked on every input, for each of a few ISBNs asked
// (a 978 ISBN whose ISBN-10 ends in X, a plain 978 one, and a 979 one without an ISBN-10):
// - the body either decodes (to a book or to "not found") or fails with
//   `UpstreamError(.malformed)` naming the provider;
// - a decoded book is the ISBN asked for (`isbn13`, and `isbn10` derived from it), lists
//   exactly this provider as its source, has no empty or untrimmed text fields, no empty
//   authors or categories, and a positive page count if any;
// - decoding is deterministic (the same body and ISBN give the same answer twice).
import Books
import HTTPClient

public enum BooksFuzz {
    public static let isbns: [ISBN] = ["9780201616224", "9780306406157", "9791034304769"].map { text in
        do { return try ISBN(parsing: text) } catch { fatalError("bad fuzz ISBN \(text): \(error)") }
    }

    public static func run(_ body: [UInt8], provider: String,
                           decode: ([UInt8], ISBN) throws(UpstreamError) -> Book?,
                           checkBook: (Book) -> Void) {
        for isbn in isbns {
            let first: Book?
            do {
                first = try decode(body, isbn)
            } catch {
                check(error.kind == .malformed, "\(provider): error kind \(error.kind), expected malformed")
                check(error.provider == provider, "\(provider): error names provider \(error.provider)")
                check(!error.detail.isEmpty, "\(provider): error without detail")
                continue
            }
            let second = try? decode(body, isbn)
            check(second == first, "\(provider): decoding the same body twice differs")
            guard let book = first else { continue }
            checkCommon(book, isbn: isbn, provider: provider)
            checkBook(book)
        }
    }

    static func trimmed(_ text: String?) -> Bool {
        guard let text else { return true }
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        return !first.properties.isWhitespace && !last.properties.isWhitespace
    }

    static func checkCommon(_ book: Book, isbn: ISBN, provider: String) {
        check(book.isbn13 == isbn.isbn13, "\(provider): asked \(isbn.isbn13), got \(book.isbn13)")
        check(book.isbn10 == isbn.isbn10, "\(provider): isbn10 \(String(describing: book.isbn10)) for \(isbn.isbn13)")
        check(book.sources == [provider], "\(provider): sources \(book.sources)")
        for (field, value) in [("title", book.title), ("subtitle", book.subtitle), ("publisher", book.publisher),
                               ("publishedDate", book.publishedDate), ("language", book.language),
                               ("description", book.description), ("coverURL", book.coverURL)] {
            check(trimmed(value), "\(provider): \(field) \(value.debugDescription) is empty or untrimmed")
        }
        for (field, list) in [("authors", book.authors), ("categories", book.categories)] {
            check(list.allSatisfy { trimmed($0) }, "\(provider): \(field) \(list) holds an empty or untrimmed name")
        }
        if let pages = book.pageCount { check(pages > 0, "\(provider): pageCount \(pages)") }
        check((book.coverPath != nil) == (book.coverURL != nil), "\(provider): coverPath without coverURL or back")
    }
}
