import Base
import Cache
import TestSupport
import Testing
@testable import Books

@Suite struct BookAnswerSharedCacheTests {
    static let isbn = try! ISBN(parsing: "978-0-306-40615-7")
    static let book = Book(isbn: isbn, title: "Le Petit Prince ✈️", subtitle: "", authors: ["Antoine de Saint-Exupéry", "زيد"],
                           publisher: "Gallimard", publishedDate: "1943-04", pageCount: 96, language: "fr",
                           description: "\"Quotes\", \\ and \u{0}", categories: ["Fiction", "童話"],
                           coverURL: "https://covers.example/b/isbn/9780306406157-L.jpg", coverSource: "open-library",
                           sources: ["google-books", "open-library"], googleVolumeID: "zyTCAlFPjgYC")

    @Test func foundAndNotFoundAnswersRoundTrip() {
        var bare = Book(isbn: Self.isbn)
        bare.pageCount = Int.min
        // A cover source without a URL: assigned after `Book.init`, and carried as it is.
        var oddCover = Self.book
        oddCover.coverURL = nil
        let answers = [
            BookAnswer(isbn: Self.isbn, book: Self.book, problemEncoder: testProblemEncoder),
            BookAnswer(isbn: Self.isbn, book: nil, problemEncoder: testProblemEncoder),
            BookAnswer(isbn: Self.isbn, book: bare, problemEncoder: testProblemEncoder),
            BookAnswer(isbn: Self.isbn, book: oddCover, problemEncoder: testProblemEncoder),
            BookAnswer(isbn: try! ISBN(parsing: "9791032305690"), book: nil, notFoundBody: [0xFF, 0, 0x80]),
        ]
        for answer in answers {
            #expect(SharedCacheValueProbe.roundTripFindings(answer).isEmpty, "\(answer)")
        }
        let decoded = BookAnswer(sharedCacheBytes: answers[0].sharedCacheBytes)
        #expect(decoded?.book?.coverSource == "open-library")
        #expect(decoded?.body == answers[0].body)
        #expect(decoded?.volumesBody == answers[0].volumesBody)
        #expect(BookAnswer(sharedCacheBytes: answers[1].sharedCacheBytes)?.book == nil)
        #expect(BookAnswer(sharedCacheBytes: answers[3].sharedCacheBytes)?.book?.coverSource == "open-library")
        #expect(decoded?.book?.googleVolumeID == "zyTCAlFPjgYC")
        #expect(BookAnswer(sharedCacheBytes: answers[2].sharedCacheBytes)?.book?.googleVolumeID == nil)
    }

    /// Version 3's layout as its documentation spells it, written field by field here: replicas
    /// of different builds read each other's records, so the field list must not change within a version.
    @Test func theRecordIsVersionThreesDocumentedLayout() {
        let answer = BookAnswer(isbn: Self.isbn, book: Self.book, problemEncoder: testProblemEncoder)
        let b = Self.book
        var expected = BinaryRecordWriter(format: BinaryRecordFormat(tag: UInt8(ascii: "B"), version: 3))
        expected.write(Self.isbn.isbn13)
        expected.write(true)
        expected.write(b.isbn.isbn13)
        expected.write(optional: b.title)
        expected.write(optional: b.subtitle)
        expected.write(b.authors)
        expected.write(optional: b.publisher)
        expected.write(optional: b.publishedDate)
        expected.write(optional: b.pageCount)
        expected.write(optional: b.language)
        expected.write(optional: b.description)
        expected.write(b.categories)
        expected.write(optional: b.coverURL)
        expected.write(optional: b.coverSource)
        expected.write(b.sources)
        expected.write(optional: b.googleVolumeID)
        expected.write(bytes: Array(BooksRenderer.bookJSON(b).utf8))
        expected.write(bytes: Array(BooksRenderer.volumesJSON(b).utf8))
        #expect(answer.sharedCacheBytes == expected.bytes)
    }

    /// A record is read only when its bodies are what this replica renders for its book: bytes
    /// another build (or a damaged record) put there are refused rather than served.
    @Test func bodiesThatAreNotTheBooksRenderingsAreRefused() {
        let answer = BookAnswer(isbn: Self.isbn, book: Self.book, problemEncoder: testProblemEncoder)
        func record(body: [UInt8], volumesBody: [UInt8]) -> [UInt8] {
            var writer = BinaryRecordWriter(format: BookAnswer.sharedFormat)
            writer.write(Self.isbn.isbn13)
            writer.write(true)
            BookAnswer.write(Self.book, to: &writer)
            writer.write(bytes: body)
            writer.write(bytes: volumesBody)
            return writer.bytes
        }
        #expect(BookAnswer(sharedCacheBytes: record(body: answer.body, volumesBody: answer.volumesBody)) == answer)
        #expect(BookAnswer(sharedCacheBytes: record(body: answer.body + [0x20], volumesBody: answer.volumesBody)) == nil)
        #expect(BookAnswer(sharedCacheBytes: record(body: answer.body, volumesBody: [])) == nil)
    }

    @Test func randomAnswersRoundTripAndDamageNeverTraps() {
        var random = SplitMix64(seed: 0xB0_0C)
        let isbns = ["9780306406157", "9791032305690", "9780134685991"].map { try! ISBN(parsing: $0) }
        for n in 0..<300 {
            let isbn = isbns[Int(random.next() % 3)]
            func text() -> String? { random.oneIn(3) ? nil : random.text(maxScalars: 30) }
            var book: Book?
            if !random.oneIn(4) {
                var made = Book(isbn: isbns[Int(random.next() % 3)])
                made.title = text(); made.subtitle = text(); made.publisher = text(); made.publishedDate = text()
                made.language = text(); made.description = text(); made.coverURL = text(); made.coverSource = text()
                made.pageCount = random.oneIn(3) ? nil : Int(bitPattern: UInt(random.next()))
                made.authors = (0..<Int(random.next() % 4)).map { _ in random.text(maxScalars: 12) }
                made.categories = (0..<Int(random.next() % 3)).map { _ in random.text(maxScalars: 12) }
                made.sources = (0..<Int(random.next() % 3)).map { _ in random.text(maxScalars: 8) }
                made.googleVolumeID = random.oneIn(3) ? nil
                    : String(decoding: (0...(random.next() % 64)).map { _ in VolumeID.alphabet[Int(random.next() % 64)] }, as: UTF8.self)
                book = made
            }
            let answer = BookAnswer(isbn: isbn, book: book, notFoundBody: random.bytes(maxCount: 200))
            let findings = SharedCacheValueProbe.roundTripFindings(answer)
            #expect(findings.isEmpty, "answer \(n): \(findings)")
            if n < 10 {
                let damage = SharedCacheValueProbe.damageFindings(answer, cases: 500, random: &random)
                #expect(damage.isEmpty, "answer \(n): \(damage.prefix(5))")
            }
        }
        let full = BookAnswer(isbn: Self.isbn, book: Self.book, problemEncoder: testProblemEncoder)
        #expect(SharedCacheValueProbe.damageFindings(full, cases: 5_000, random: &random).isEmpty)
    }

    /// Only the thirteen digits of a valid ISBN-13 are read back; other spellings of the same
    /// book and wrong check digits are refused (the writer never produces them).
    @Test func onlyCanonicalISBNsAreRead() {
        func record(_ isbn: String) -> [UInt8] {
            var writer = BinaryRecordWriter(format: BookAnswer.sharedFormat)
            writer.write(isbn)
            writer.write(false)
            writer.write(bytes: [])
            writer.write(bytes: Array(BooksRenderer.volumesJSON(nil).utf8))
            return writer.bytes
        }
        #expect(BookAnswer(sharedCacheBytes: record("9780306406157"))?.isbn == Self.isbn)
        for bad in ["0306406152", "978-0306406157", "9780306406158", "978030640615７", "9780306406157 ", "", "978030640615\u{0}"] {
            #expect(BookAnswer(sharedCacheBytes: record(bad)) == nil, "\(bad)")
        }
        var wrongVersion = record("9780306406157")
        wrongVersion[1] = 0
        #expect(BookAnswer(sharedCacheBytes: wrongVersion) == nil)
    }

    /// A Google volume id is read back only as what it claims to be, `[A-Za-z0-9_-]{1,64}`: a
    /// record carrying anything else (no writer makes one) is refused, not served with that id.
    @Test func onlyWellFormedGoogleVolumeIDsAreRead() {
        func record(_ id: String?) -> [UInt8] {
            var book = Self.book
            book.googleVolumeID = id
            return BookAnswer(isbn: Self.isbn, book: book, problemEncoder: testProblemEncoder).sharedCacheBytes
        }
        #expect(BookAnswer(sharedCacheBytes: record("zyTCAlFPjgYC"))?.book?.googleVolumeID == "zyTCAlFPjgYC")
        #expect(BookAnswer(sharedCacheBytes: record(nil))?.book?.googleVolumeID == nil)
        #expect(BookAnswer(sharedCacheBytes: record(String(repeating: "_", count: 64)))?.book?.googleVolumeID?.utf8.count == 64)
        for bad in ["", String(repeating: "_", count: 65), "zyTCAlFPjgY/", "zyTCAlFPjgY ", "zyTCAlFPjgYÇ", "zyTCAlFPjgY\u{0}", "../x"] {
            #expect(BookAnswer(sharedCacheBytes: record(bad)) == nil, "\(bad)")
        }
    }

    /// Version 1 records (before the volume id) and version 2 (the validator of both bodies) are
    /// refused, so they are absent and refetched.
    @Test func olderVersionsAreRefused() {
        for version: UInt8 in [1, 2] {
            var old = BinaryRecordWriter(format: BinaryRecordFormat(tag: UInt8(ascii: "B"), version: version))
            old.write(Self.isbn.isbn13)
            old.write(false)
            old.write(bytes: [])
            old.write(bytes: Array(BooksRenderer.volumesJSON(nil).utf8))
            #expect(BookAnswer(sharedCacheBytes: old.bytes) == nil, "version \(version)")
        }
    }

    @Test func isbnKeysAreTheThirteenDigits() {
        #expect(Self.isbn.sharedCacheKeyBytes == Array("9780306406157".utf8))
        #expect((try! ISBN(parsing: "0-306-40615-2")).sharedCacheKeyBytes == Array("9780306406157".utf8))
    }
}

@Suite struct CoverAnswerSharedCacheTests {
    @Test func imagesAndMissingCoversRoundTrip() {
        var random = SplitMix64(seed: 0xC0_7E4)
        // Every byte value, as a JPEG's would be.
        let allBytes = (0...255).map { UInt8($0) } + [0xFF, 0xD8, 0xFF, 0xE0, 0, 0]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        let covers = [
            CoverAnswer.image(jpeg + allBytes, contentType: "image/jpeg"),
            CoverAnswer.image([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], contentType: "image/png"),
            CoverAnswer.missing(body: Array(#"{"type":"about:blank","status":404}"#.utf8)),
            CoverAnswer.missing(body: []),
            CoverAnswer.image(Array("GIF89a".utf8) + random.bytes(maxCount: 70_000), contentType: "image/gif"),
            CoverAnswer.image(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8), contentType: "image/webp"),
        ]
        for cover in covers {
            #expect(SharedCacheValueProbe.roundTripFindings(cover).isEmpty)
        }
        let decoded = CoverAnswer(sharedCacheBytes: covers[0].sharedCacheBytes)
        #expect(decoded?.image == jpeg + allBytes)
        #expect(decoded?.contentType == "image/jpeg")
        #expect(CoverAnswer(sharedCacheBytes: covers[2].sharedCacheBytes)?.image == nil)
        // A record whose bytes are not what its type says is refused: an SVG (or a page, or
        // nothing) labelled as an image, or one image format labelled as another.
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
        for (body, type) in [(svg, "image/png"), ([], "image/png"), (jpeg, "image/png"), (Array("<html>".utf8), "image/gif")] {
            #expect(CoverAnswer(sharedCacheBytes: CoverAnswer.image(body, contentType: type).sharedCacheBytes) == nil, "\(type)")
        }
        #expect(SharedCacheValueProbe.damageFindings(covers[0], cases: 5_000, random: &random).isEmpty)
        #expect(SharedCacheValueProbe.damageFindings(covers[2], cases: 2_000, random: &random).isEmpty)
    }
}

/// The `shared-values` fuzz target's seeds of book answers and covers.
@Suite struct BooksSharedValueSeedTests {
    static func envelope(_ namespace: String, _ isbn: ISBN, _ value: some SharedCacheValue) -> [UInt8] {
        SharedEnvelope(storedAtMilliseconds: 1_700_000_000_000, expiresAtMilliseconds: 1_700_000_060_000,
                       staleUntilMilliseconds: 1_700_000_660_000, key: SharedEnvelope.key(namespace: namespace, key: isbn.sharedCacheKeyBytes),
                       validator: value.cacheValidator, value: value.sharedCacheBytes).encoded ?? []
    }

    @Test func seedsAreCurrent() {
        let isbn = BookAnswerSharedCacheTests.isbn
        let seeds: [(name: String, bytes: [UInt8])] = [
            ("book-found", BookAnswer(isbn: isbn, book: BookAnswerSharedCacheTests.book, problemEncoder: testProblemEncoder).sharedCacheBytes),
            ("book-not-found", BookAnswer(isbn: isbn, book: nil, problemEncoder: testProblemEncoder).sharedCacheBytes),
            ("cover-image", CoverAnswer.image([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46, 0, 0xFF, 0xD9],
                                              contentType: "image/jpeg").sharedCacheBytes),
            ("cover-missing", CoverAnswer.missing(body: Array(#"{"status":404}"#.utf8)).sharedCacheBytes),
            // Whole envelopes as a replica stores them at the fuzz's clock (1_700_000_000_000 ms).
            ("envelope-books", Self.envelope("books", isbn, BookAnswer(isbn: isbn, book: BookAnswerSharedCacheTests.book,
                                                                       problemEncoder: testProblemEncoder))),
            ("envelope-covers", Self.envelope("covers", isbn, CoverAnswer.image([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xD9], contentType: "image/jpeg"))),
        ]
        #expect(FuzzSeeds.findings(target: "shared-values", seeds: seeds) == [])
    }
}

/// A book answer read from the shared layer is served only under its own ISBN's key.
@Suite struct BookAnswerBelongsTests {
    @Test func anAnswerBelongsToItsISBNOnly() throws {
        let a = try ISBN(parsing: "9780306406157"), b = try ISBN(parsing: "9791032305690")
        let answer = BookAnswer(isbn: a, book: Book(isbn: a, title: "A"), problemEncoder: testProblemEncoder)
        #expect(answer.belongs(toSharedCacheKey: a.sharedCacheKeyBytes))
        #expect(!answer.belongs(toSharedCacheKey: b.sharedCacheKeyBytes))
        #expect(BookAnswer(isbn: b, book: nil, problemEncoder: testProblemEncoder).belongs(toSharedCacheKey: b.sharedCacheKeyBytes))
        // An answer whose book is another ISBN's (no writer makes one): refused whatever the key.
        let mixed = BookAnswer(isbn: a, book: Book(isbn: b, title: "B"), problemEncoder: testProblemEncoder)
        #expect(!mixed.belongs(toSharedCacheKey: a.sharedCacheKeyBytes))
    }
}
