import Base
import Testing
@testable import Books

/// A cached book keeps one rendering (its `/v1/books` body) and a few bytes of what the body does
/// not show; the book and the volumes body are derived from them, exactly.
@Suite struct BookAnswerTests {
    static let isbn = BookAnswerSharedCacheTests.isbn
    static let book = BookAnswerSharedCacheTests.book

    @Test func theBookAndTheVolumesBodyAreDerivedExactly() {
        var bare = Book(isbn: Self.isbn)
        bare.pageCount = Int.min
        var oddCover = Self.book
        oddCover.coverURL = nil
        for book in [Self.book, bare, oddCover, Book(isbn: Self.isbn, sources: ["google-books"])] {
            let answer = BookAnswer(isbn: Self.isbn, book: book, problemEncoder: testProblemEncoder)
            #expect(answer.isFound)
            #expect(answer.book == book)
            #expect(answer.body == Array(BooksRenderer.bookJSON(book).utf8))
            #expect(answer.volumesBody == Array(BooksRenderer.volumesJSON(book).utf8))
        }
        let missing = BookAnswer(isbn: Self.isbn, book: nil, problemEncoder: testProblemEncoder)
        #expect(!missing.isFound)
        #expect(missing.book == nil)
        #expect(missing.volumesBody == Array(BooksRenderer.volumesJSON(nil).utf8))
    }

    /// Beside the body, a book whose body reads back to it keeps only its Google volume id, its
    /// cover URL (the ISBN and the id in it one byte each) and its cover source (one byte when it
    /// is the first source): no second copy of its facts.
    @Test func theExtrasAreOnlyWhatTheBodyDoesNotShow() throws {
        let answer = BookAnswer(isbn: Self.isbn, book: Self.book, problemEncoder: testProblemEncoder)
        let extras = try #require(answer.extras)
        let url = try #require(Self.book.coverURL)
        #expect(url.contains("9780306406157"))
        let id: Int = 2 + "zyTCAlFPjgYC".utf8.count
        let shortURL: Int = 2 + url.utf8.count - 12
        // Tag, version and flag; id; URL; how the cover source is kept (here its text: open-library
        // is the second source).
        #expect(extras.count == 3 + id + shortURL + 1 + 1 + "open-library".utf8.count)
        #expect(extras.capacity < extras.count + 16)
        #expect(answer.body.capacity < answer.body.count + 16)
        #expect(answer.cacheCost < answer.body.count + extras.count + 128)
        var first = Self.book
        first.coverSource = first.sources.first
        first.coverURL = "https://books.example/content?id=zyTCAlFPjgYC&isbn=9780306406157&zoom=1"
        let short = try #require(BookAnswer(isbn: Self.isbn, book: first, problemEncoder: testProblemEncoder).extras)
        #expect(short.count == 3 + id + 2 + "https://books.example/content?id=&isbn=&zoom=1".utf8.count + 2 + 1)
    }

    /// A cover URL or id holding the marks' own bytes, or naming the ISBN or id more than once,
    /// still reads back exactly (kept whole when the short form would not).
    @Test func oddCoverURLsReadBackExactly() {
        for url in ["https://x.example/\u{1}9780306406157\u{2}", "https://x.example/97803064061579780306406157",
                    "https://x.example/zyTCAlFPjgYC9780306406157zyTCAlFPjgYC", "9780306406157", "", "\u{1}"] {
            for id in ["zyTCAlFPjgYC", "9780306406157", "a\u{1}"] as [String?] + [nil] {
                var book = Self.book
                book.coverURL = url
                book.googleVolumeID = id
                let answer = BookAnswer(isbn: Self.isbn, book: book, problemEncoder: testProblemEncoder)
                #expect(answer.book == book, "\(url) \(String(describing: id))")
            }
        }
    }

    /// A book the body cannot give back exactly (a provider name with the `+` the `source` field
    /// joins with; a book of another ISBN) is kept whole, so nothing is ever derived wrongly.
    @Test func aBookTheBodyCannotGiveBackIsKeptWhole() throws {
        var plus = Self.book
        plus.sources = ["a+b"]
        let other = try ISBN(parsing: "9791032305690")
        for (isbn, book) in [(Self.isbn, plus), (Self.isbn, Book(isbn: other, title: "B"))] {
            let answer = BookAnswer(isbn: isbn, book: book, problemEncoder: testProblemEncoder)
            #expect(answer.book == book)
            #expect(try #require(answer.extras)[2] == 1, "the flag of a whole book")
        }
    }

    /// Derived texts are the very bytes the book had: a decomposed accent stays decomposed.
    @Test func derivedTextsKeepTheirBytes() throws {
        for title in ["Cafe\u{301}", "Caf\u{E9}", "\u{212A}elvin"] {
            var book = Self.book
            book.title = title
            let derived = try #require(BookAnswer(isbn: Self.isbn, book: book, problemEncoder: testProblemEncoder).book)
            #expect(Array(derived.title?.utf8 ?? "".utf8) == Array(title.utf8))
        }
    }

    /// The validator is a digest of what is stored, 13 characters: inline in its `String`.
    @Test func theValidatorIsCompactAndFollowsTheContent() {
        let a = BookAnswer(isbn: Self.isbn, book: Self.book, problemEncoder: testProblemEncoder)
        var other = Self.book
        other.coverURL = "https://covers.example/other.jpg"
        let b = BookAnswer(isbn: Self.isbn, book: other, problemEncoder: testProblemEncoder)
        #expect(a.cacheValidator.utf8.count == 13)
        #expect(a.cacheValidator == BookAnswer(isbn: Self.isbn, book: Self.book, problemEncoder: testProblemEncoder).cacheValidator)
        // Same body, another cover URL: another entry, another validator.
        #expect(a.body == b.body)
        #expect(a.cacheValidator != b.cacheValidator)
    }
}
