import HTTPClient
import Testing
@testable import Books

@Suite struct GoogleBooksDecodingTests {
    let google = GoogleBooksProvider()

    @Test func picksTheItemCarryingTheISBNNotItemsZero() throws {
        let book = try #require(try google.decode(Array(Fixtures.googlePragmatic.utf8), isbn: isbn(Fixtures.pragmatic13)))
        #expect(book.subtitle == "From Journeyman to Master")
        #expect(book.publishedDate == "1999-10-20")
        #expect(book.pageCount == 352)
        #expect(book.authors == ["Andrew Hunt", "David Thomas"])
        #expect(book.publisher == "Addison-Wesley Professional")
        #expect(book.categories == ["Computers"])
        #expect(book.language == "en")
        #expect(book.description?.hasPrefix("Straight from the programming trenches") == true)
        #expect(book.sources == ["google-books"])
        #expect(book.googleVolumeID == "5wBQEp6ruIAC", "the matching item's id, not items[0]'s")
    }

    /// Google's id of the matching volume is kept when it is one (`[A-Za-z0-9_-]{1,64}`);
    /// anything else is absent, never a reason to lose the book, and the volume is minted an id.
    @Test func aMalformedVolumeIDIsAbsentAndTheBookKept() throws {
        let longest = String(repeating: "a-_Z9", count: 12) + "abcd"
        for (id, kept) in [(#""\#(longest)""#, longest), (#""x""#, "x")] {
            let json = Fixtures.googlePragmaticThin.replacingOccurrences(of: #""5wBQEp6ruIAC""#, with: id)
            #expect(try google.decode(Array(json.utf8), isbn: isbn(Fixtures.pragmatic13))?.googleVolumeID == kept)
        }
        for bad in [#""""#, #""\#(longest)x""#, #""5wBQEp6ruIAC ""#, #""5wBQEp/ruIAC""#, #""5wBQEp6ruIA\u00C7""#,
                    #""5wBQEp6ruIA\u0000""#, "12345", "null", #"["5wBQEp6ruIAC"]"#, #"{"id":"5wBQEp6ruIAC"}"#] {
            let json = Fixtures.googlePragmaticThin.replacingOccurrences(of: #""5wBQEp6ruIAC""#, with: bad)
            let book = try #require(try google.decode(Array(json.utf8), isbn: isbn(Fixtures.pragmatic13)), "\(bad)")
            #expect(book.googleVolumeID == nil, "\(bad)")
            #expect(book.title == "The Pragmatic Programmer")
            #expect(Volume(book: book).id == VolumeID.minted(for: isbn(Fixtures.pragmatic13)), "\(bad)")
        }
        let noID = Fixtures.googlePragmaticThin.replacingOccurrences(of: #""id":"5wBQEp6ruIAC","#, with: "")
        #expect(try google.decode(Array(noID.utf8), isbn: isbn(Fixtures.pragmatic13))?.googleVolumeID == nil)
    }

    @Test func matchesOnTheISBN10IdentifierToo() throws {
        let json = Fixtures.googlePragmatic.replacingOccurrences(of: #"{"type": "ISBN_13", "identifier": "9780201616224"}"#,
                                                                 with: #"{"type": "OTHER", "identifier": "UOM:39015047837564"}"#)
        let book = try google.decode(Array(json.utf8), isbn: isbn("0-201-61622-x"))
        #expect(book?.pageCount == 352)
    }

    /// Identifiers are compared as bytes: `-` or a digit followed by a combining mark is not
    /// the ISBN asked for, however a `Character` comparison would see it.
    @Test func identifiersAreComparedAsBytes() throws {
        #expect(GoogleBooksProvider.normalized("0-201-61622-x") == Array("020161622X".utf8))
        #expect(GoogleBooksProvider.normalized(" 978-0201616224 ") == Array("9780201616224".utf8))
        for hostile in ["978020161622\u{0301}4", "9780201616224\u{0308}", "978-\u{0301}0201616224", "97802016162\u{FF12}4"] {
            let json = Fixtures.googlePragmatic
                .replacingOccurrences(of: #""identifier": "9780201616224""#, with: #""identifier": "\#(hostile)""#)
                .replacingOccurrences(of: #""identifier": "020161622X""#, with: #""identifier": "\#(hostile)""#)
            #expect(try google.decode(Array(json.utf8), isbn: isbn(Fixtures.pragmatic13)) == nil, "\(hostile)")
        }
    }

    @Test func thumbnailIsUpgradedToHTTPS() throws {
        let book = try google.decode(Array(Fixtures.googlePragmatic.utf8), isbn: isbn(Fixtures.pragmatic13))
        #expect(book?.coverURL == "https://books.google.com/books/content?id=5wBQEp6ruIAC&printsec=frontcover&img=1&zoom=1&source=gbs_api")
        // Only Google's own image hosts are rewritten; anything else is left for the host policy to judge.
        #expect(GoogleBooksProvider.secured("http://example.com/x.jpg") == "http://example.com/x.jpg")
        // Decided on the host as written, even when libcurl will refuse the URL (found by the
        // google-books fuzz target: a space in the query left an http:// Google thumbnail as it was).
        #expect(GoogleBooksProvider.secured("http://books.google.com/books/content?id=1&source=gbs_g i")
                    == "https://books.google.com/books/content?id=1&source=gbs_g i")
        #expect(GoogleBooksProvider.secured("http://books.google.com@evil.example/x") == "http://books.google.com@evil.example/x",
                "the written host is evil.example: left for the host policy to refuse")
        #expect(GoogleBooksProvider.secured("HTTP://Books.Google.com:80/x") == "https://Books.Google.com:80/x")
    }

    @Test func noMatchingItemIsNotFound() throws {
        // Searching the anniversary edition's neighbour: items exist, none carries the ISBN.
        #expect(try google.decode(Array(Fixtures.googlePragmatic.utf8), isbn: isbn("9780306406157")) == nil)
    }

    @Test func zeroItemsIsNotFound() throws {
        #expect(try google.decode(Array(Fixtures.googleNotFound.utf8), isbn: isbn(Fixtures.pragmatic13)) == nil)
        #expect(try google.decode(Array(#"{"kind":"books#volumes","totalItems":3,"items":[]}"#.utf8), isbn: isbn(Fixtures.pragmatic13)) == nil)
    }

    @Test func missingFieldsAreNilOrEmpty() throws {
        let book = try #require(try google.decode(Array(Fixtures.googlePragmaticThin.utf8), isbn: isbn(Fixtures.pragmatic13)))
        #expect(book.pageCount == nil)
        #expect(book.description == nil)
        #expect(book.coverURL == nil)
        #expect(book.publisher == nil)
        #expect(book.categories == [])
        #expect(book.subtitle == nil)
    }

    @Test(arguments: [
        (#"{"totalItems":1,"items":[{"volumeInfo":{"title":"x","pageCount":"352","industryIdentifiers":[]}}]}"#,
         "field items[0].volumeInfo.pageCount: expected a number"),
        (#"{"totalItems":1,"items":[{"volumeInfo":{"authors":"Andrew Hunt"}}]}"#,
         "field items[0].volumeInfo.authors: expected an array"),
        (#"{"totalItems":"many"}"#, "field totalItems: expected a number"),
        ("<html>quota</html>", "response is not JSON (unexpected character at byte 0)"),
        (#"{"totalItems":1,"totalItems":"many"}"#, "response is not JSON (duplicate member name at byte 16)"),
    ])
    func wrongTypesNameProviderAndField(json: String, detail: String) {
        #expect(throws: UpstreamError(.malformed, provider: "google-books", detail: detail)) {
            try google.decode(Array(json.utf8), isbn: isbn(Fixtures.pragmatic13))
        }
    }

    @Test func requestUsesOnlyTheCanonicalISBNAndMarksTheKeySecret() {
        var settings = BooksConfiguration.GoogleBooks()
        settings.apiKey = "s3cr&t=1"
        settings.country = "GB"
        let request = GoogleBooksProvider(baseURL: "https://www.googleapis.com/", settings: settings).request(for: isbn("0-201-61622-X"))
        #expect(request.url == "https://www.googleapis.com/books/v1/volumes?q=isbn:9780201616224&key=s3cr%26t%3D1&country=GB")
        #expect(request.secretQueryParameters == ["key"])
        #expect(request.provider == "google-books")
        #expect(GoogleBooksProvider().request(for: isbn("0201616220".dropLast() + "X")).url
            == "https://www.googleapis.com/books/v1/volumes?q=isbn:9780201616224")
    }
}

@Suite struct OpenLibraryDecodingTests {
    let openLibrary = OpenLibraryProvider()

    @Test func decodesTheKeyedRecord() throws {
        let book = try #require(try openLibrary.decode(Array(Fixtures.openLibraryPragmatic.utf8), isbn: isbn(Fixtures.pragmatic10)))
        #expect(book.title == "The pragmatic programmer")
        #expect(book.subtitle == "from journeyman to master")
        #expect(book.authors == ["Andrew Hunt", "David Thomas"])
        #expect(book.publisher == "Addison-Wesley")
        #expect(book.publishedDate == "2000")
        #expect(book.pageCount == 321)
        #expect(book.categories == ["Computer programming", "Software engineering"])
        #expect(book.description == nil)
        #expect(book.sources == ["open-library"])
    }

    @Test func coverGetsDefaultFalseOnTheConfiguredCoversHost() throws {
        let book = try openLibrary.decode(Array(Fixtures.openLibraryPragmatic.utf8), isbn: isbn(Fixtures.pragmatic13))
        #expect(book?.coverURL == "https://covers.openlibrary.org/b/id/8090534-L.jpg?default=false")

        var mirrored = BooksConfiguration.OpenLibrary()
        mirrored.coversBaseURL = "http://127.0.0.1:9000/"
        let rebased = try OpenLibraryProvider(settings: mirrored)
            .decode(Array(Fixtures.openLibraryPragmatic.utf8), isbn: isbn(Fixtures.pragmatic13))
        #expect(rebased?.coverURL == "http://127.0.0.1:9000/b/id/8090534-L.jpg?default=false")
    }

    @Test func aCoverOutsideTheCoversPathIsDropped() throws {
        let json = #"{"ISBN:9780201616224":{"title":"x","cover":{"large":"https://evil.example/steal?x=1"}}}"#
        let book = try openLibrary.decode(Array(json.utf8), isbn: isbn(Fixtures.pragmatic13))
        #expect(book?.coverURL == nil)
    }

    @Test func emptyObjectIsNotFound() throws {
        #expect(try openLibrary.decode(Array("{}".utf8), isbn: isbn(Fixtures.pragmatic13)) == nil)
    }

    @Test func missingFieldsAreNilOrEmpty() throws {
        let book = try #require(try openLibrary.decode(Array(#"{"ISBN:9780201616224":{"title":"x"}}"#.utf8), isbn: isbn(Fixtures.pragmatic13)))
        #expect(book.authors == [])
        #expect(book.publisher == nil)
        #expect(book.pageCount == nil)
        #expect(book.coverURL == nil)
    }

    @Test(arguments: [
        (#"{"ISBN:9780201616224":{"number_of_pages":"321"}}"#, "field ISBN:9780201616224.number_of_pages: expected a number"),
        (#"{"ISBN:9780201616224":{"authors":[{"name":7}]}}"#, "field ISBN:9780201616224.authors[0].name: expected a string"),
        (#"[]"#, "field (root): expected an object"),
        (#"{"ISBN:9780201616224":{"title":"A","title":"B"}}"#, "response is not JSON (duplicate member name at byte 35)"),
    ])
    func wrongTypesNameProviderAndField(json: String, detail: String) {
        #expect(throws: UpstreamError(.malformed, provider: "open-library", detail: detail)) {
            try openLibrary.decode(Array(json.utf8), isbn: isbn(Fixtures.pragmatic13))
        }
    }

    @Test func requestShape() {
        #expect(OpenLibraryProvider().request(for: isbn("0306406152")).url
            == "https://openlibrary.org/api/books?bibkeys=ISBN:9780306406157&format=json&jscmd=data")
    }
}
