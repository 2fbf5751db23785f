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

    /// Beside the body, a book whose body reads back to it keeps only its cover URL, cover
    /// source and Google volume id: no second copy of its facts.
    @Test func theExtrasAreOnlyWhatTheBodyDoesNotShow() throws {
        let answer = BookAnswer(isbn: Self.isbn, book: Self.book, problemEncoder: testProblemEncoder)
        let extras = try #require(answer.extras)
        let hidden: Int = (Self.book.coverURL?.utf8.count ?? 0) + (Self.book.googleVolumeID?.utf8.count ?? 0)
        let sourceText: Int = 1 + "open-library".utf8.count
        // Tag, version, the flag, two presence bytes and lengths, how the cover source is kept
        // (one byte: "the first source", here open-library, the second: its text).
        #expect(Self.book.coverSource == "open-library")
        #expect(extras.count == hidden + 8 + sourceText)
        var first = Self.book
        first.coverSource = first.sources.first
        let short = try #require(BookAnswer(isbn: Self.isbn, book: first, problemEncoder: testProblemEncoder).extras)
        #expect(short.count == hidden + 8)
        #expect(extras.capacity < extras.count + 16)
        #expect(answer.body.capacity < answer.body.count + 16)
        #expect(answer.cacheCost < answer.body.count + extras.count + 128)
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
