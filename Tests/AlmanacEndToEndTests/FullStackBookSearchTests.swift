import Base
import Foundation
import HTTPClientTestSupport
import Rates
import Testing
import TestSupport
@testable import Almanac

extension FullStackTests {
    /// Google Books search, volumes by id and Google's error envelope over real sockets, with
    /// Google's and Open Library's search emulated in their exact shapes (`BookSearchStub`).
    @Suite struct BookSearch {
        typealias S = BookSearchStub
        static let olFields = "fields=key%2Ctitle%2Csubtitle%2Cauthor_name%2Cpublisher%2Cfirst_publish_year%2Cisbn%2Cnumber_of_pages_median%2Clanguage%2Csubject%2Ccover_i"

        /// The full-stack fixtures plus both searches; no budgets (these tests count calls).
        static func run(steward: Bool = false, configure: @escaping (inout AlmanacConfiguration) -> Void = { _ in },
                        _ body: (FullStack) async throws -> Void) async throws {
            try await FullStack.run(configure: { c in
                if !steward { FullStack.unthrottled(&c) }
                configure(&c)
            }, script: { stub in
                FullStackFixtures.scriptAll(stub)
                S.script(stub)
                // The fixture's ISBN lookup keeps its exact route (it wins over the path).
                stub.route(F.googleTarget(F.isbn13), .json(F.google))
            }, body)
        }

        static func items(_ r: RawHTTPResponse) -> [JSONValue] {
            guard case let .array(items)? = r.json?["items"] else { return [] }
            return items
        }

        static func string(_ value: JSONValue?) -> String? {
            guard case let .string(text)? = value else { return nil }
            return text
        }

        static func googleTargets(_ s: FullStack) -> [String] {
            s.stub.requests.filter { $0.path == S.googleSearchPath }.map(\.target)
        }

        static func openLibraryTargets(_ s: FullStack) -> [String] {
            s.stub.requests.filter { $0.path == S.openLibrarySearchPath }.map(\.target)
        }

        @Test func searchPagesThroughGoogleWithIdsEtagsAndSelfLinks() async throws {
            try await Self.run { s in
                let first = try await s.get("/books/v1/volumes?q=hobbit&maxResults=5")
                #expect(first.status == 200, "\(first.text)")
                #expect(first.header("Content-Type") == "application/json; charset=utf-8")
                #expect(first.json?["kind"] == .string("books#volumes"))
                #expect(first.json?["totalItems"] == .number("25"))
                let page1 = Self.items(first)
                #expect(page1.count == 5)
                #expect(page1.map { Self.string($0["id"]) } == (0..<5).map { S.googleID($0) })
                let item = try #require(page1.first)
                #expect(FullStack.keys(item) == ["etag", "id", "kind", "selfLink", "volumeInfo"])
                #expect(item["kind"] == .string("books#volume"))
                #expect(Self.string(item["etag"])?.utf8.count == 11)
                #expect(item["selfLink"] == .string("http://127.0.0.1/books/v1/volumes/\(S.googleID(0))"))
                let info = item["volumeInfo"]
                #expect(info?["title"] == .string(S.googleTitle(0)))
                #expect(info?["infoLink"] == .string("https://books.google.com/books?id=\(S.googleID(0))"))
                // With an ISBN-13: almanac's cover route, never Google's image URL.
                #expect(info?["imageLinks"]?["thumbnail"] == .string("http://127.0.0.1/v1/books/\(F.isbn13)/cover"))
                #expect(!first.text.contains("books.google.com/books/content"))
                // No ISBN: no imageLinks, no industryIdentifiers.
                #expect(page1[1]["volumeInfo"]?["imageLinks"] == nil)
                #expect(page1[1]["volumeInfo"]?["industryIdentifiers"] == nil)

                let third = try await s.get("/books/v1/volumes?q=hobbit&startIndex=10&maxResults=5")
                #expect(Self.items(third).map { Self.string($0["id"]) } == (10..<15).map { S.googleID($0) })
                let last = try await s.get("/books/v1/volumes?q=hobbit&startIndex=20&maxResults=40")
                #expect(Self.items(last).count == 5)
                let beyond = try await s.get("/books/v1/volumes?q=hobbit&startIndex=30")
                #expect(beyond.status == 200)
                #expect(beyond.json == .object(["kind": .string("books#volumes"), "totalItems": .number("25")]))

                #expect(Self.googleTargets(s) == [
                    "/books/v1/volumes?q=hobbit&startIndex=0&maxResults=5",
                    "/books/v1/volumes?q=hobbit&startIndex=10&maxResults=5",
                    "/books/v1/volumes?q=hobbit&startIndex=20&maxResults=40",
                    "/books/v1/volumes?q=hobbit&startIndex=30&maxResults=10",
                ])
                #expect(Self.openLibraryTargets(s).isEmpty)
            }
        }

        @Test func everyKeywordReachesGoogleNormalizedWithOnlyAlmanacsKey() async throws {
            try await Self.run(configure: { $0.books.googleBooks.apiKey = "almanac-key" }) { s in
                let q = "INTITLE:%22The++Hobbit%22+InAuthor:tolkien+inpublisher:allen+SUBJECT:fantasy+lccn:2001012345+oclc:12345+%22there+and+back%22+dragons"
                let r = try await s.get("/books/v1/volumes?q=\(q)&orderBy=NEWEST&printType=books&langRestrict=EN&projection=lite&key=client-key&fields=items(id)&prettyPrint=false")
                #expect(r.status == 200, "\(r.text)")
                // Not narrowed by `fields`.
                #expect(Self.items(r).first?["volumeInfo"] != nil)
                #expect(Self.googleTargets(s) == [
                    "/books/v1/volumes?q=intitle%3A%22The%20Hobbit%22%20inauthor%3Atolkien%20inpublisher%3Aallen%20subject%3Afantasy%20lccn%3A2001012345%20oclc%3A12345%20%22there%20and%20back%22%20dragons"
                        + "&startIndex=0&maxResults=10&orderBy=newest&printType=books&langRestrict=en&projection=lite&key=almanac-key",
                ])
                // A number that is no barcode is a word: 1984 is searched for.
                let number = try await s.get("/books/v1/volumes?q=1984")
                #expect(number.status == 200, "\(number.text)")
                #expect(Self.googleTargets(s).last == "/books/v1/volumes?q=1984&startIndex=0&maxResults=10&key=almanac-key")
                // A bare barcode with a wrong check digit is still the lookup's 400.
                let barcode = try await s.get("/books/v1/volumes?q=978-0-306-40615-8")
                #expect(barcode.expectGoogleError(400).contains("not a valid ISBN"))
                                // isbn: with other terms is a search too.
                _ = try await s.get("/books/v1/volumes?q=isbn:9780306406157+intitle:statistics")
                #expect(Self.googleTargets(s).last == "/books/v1/volumes?q=isbn%3A9780306406157%20intitle%3Astatistics&startIndex=0&maxResults=10&key=almanac-key")
            }
        }

        @Test func theSameQueryTwiceCostsOneUpstreamCall() async throws {
            try await Self.run { s in
                let first = try await s.get("/books/v1/volumes?q=INTITLE:hobbit++tolkien")
                #expect(first.status == 200)
                #expect(first.header("X-Cache") == "MISS")
                let age = try #require(maxAge(first))
                #expect(age > 3000 && age <= 3600, "books.searchTtlSeconds by default")
                // Spelled differently, with a client's key, fields and prettyPrint: one entry.
                let second = try await s.get("/books/v1/volumes?maxResults=10&prettyPrint=true&q=intitle:hobbit%20tolkien&key=abc&fields=items&startIndex=0")
                #expect(second.status == 200)
                #expect(second.header("X-Cache") == "HIT")
                #expect(second.body == first.body)
                #expect(second.header("ETag") == first.header("ETag"))
                // The native search of the same terms shares it too.
                let native = try await s.get("/v1/books/search?q=INTITLE:hobbit%20tolkien")
                #expect(native.header("X-Cache") == "HIT")
                #expect(s.count(S.googleSearchPath) == 1)
                #expect(s.cacheStats("book-search").entries == 1)
            }
        }

        @Test func googleFailingFallsOverToOpenLibraryWithKeywordsMapped() async throws {
            try await Self.run { s in
                s.stub.setFault(.status(503), for: S.googleSearchPath)
                let r = try await s.get("/books/v1/volumes?q=intitle:hobbit+inauthor:tolkien+inpublisher:allen+subject:fantasy+isbn:9780306406157+lccn:123+%22there+and+back%22&startIndex=0&maxResults=4")
                #expect(r.status == 200, "\(r.text)")
                #expect(r.json?["totalItems"] == .number("25"))
                let items = Self.items(r)
                #expect(items.count == 4)
                #expect(Self.openLibraryTargets(s) == [
                    "/search.json?q=lccn%3A123%20%22there%20and%20back%22&title=hobbit&author=tolkien&publisher=allen&subject=fantasy&isbn=9780306406157&"
                        + Self.olFields + "&offset=0&limit=4",
                ])
                // Even works carry an ISBN-13 (id minted for it, cover through almanac); odd ones neither.
                let even = items[0]["volumeInfo"], odd = items[1]["volumeInfo"]
                #expect(even?["title"] == .string(S.openLibraryTitle(0)))
                #expect(even?["authors"] == .array([.string("Writer 0")]))
                #expect(even?["publishedDate"] == .string("1950"))
                #expect(even?["pageCount"] == .number("200"))
                #expect(even?["imageLinks"]?["thumbnail"] == .string("http://127.0.0.1/v1/books/\(S.isbn13(0))/cover"))
                #expect(odd?["imageLinks"] == nil && odd?["industryIdentifiers"] == nil)
                #expect(even?["infoLink"] == nil, "Open Library gives no page link")
                let ids = items.compactMap { Self.string($0["id"]) }
                #expect(ids.count == 4 && ids.allSatisfy { $0.utf8.count == 12 })
                #expect(Set(ids).count == 4)

                // The native answer says who answered.
                let native = try await s.get("/v1/books/search?title=hobbit&limit=3&page=2")
                #expect(native.status == 200, "\(native.text)")
                #expect(native.json?["source"] == .string("open-library"))
                #expect(Self.openLibraryTargets(s).last == "/search.json?title=hobbit&" + Self.olFields + "&offset=3&limit=3")
            }
        }

        @Test func aGoogle429IsAnsweredFromOpenLibraryWithoutASecondGoogleCallInTheCooldown() async throws {
            try await Self.run(steward: true) { s in
                // Retry-After sets a cooldown no busy machine outlasts between these requests (without
                // one, a 429 means 1 s).
                s.stub.route(S.googleSearchPath, StubResponse(status: 429, headers: [("Content-Type", "application/json"), ("Retry-After", "120")],
                                                              body: Array(#"{"error":{"code":429,"message":"Quota exceeded"}}"#.utf8)))
                let first = try await s.get("/books/v1/volumes?q=hobbit")
                #expect(first.status == 200, "\(first.text)")
                #expect(Self.items(first).first?["volumeInfo"]?["title"] == .string(S.openLibraryTitle(0)))
                let second = try await s.get("/books/v1/volumes?q=silmarillion")
                #expect(second.status == 200, "\(second.text)")
                let native = try await s.get("/v1/books/search?q=dragons")
                #expect(native.json?["source"] == .string("open-library"))
                #expect(s.count(S.googleSearchPath) == 1, "Google is in its cooldown after the 429")
                #expect(s.count(S.openLibrarySearchPath) == 3)
            }
        }

        @Test func volumeIdsRoundTripForGoogleAndOpenLibraryItems() async throws {
            try await Self.run { s in
                // Google's own id, fetched from Google and then cached.
                let search = try await s.get("/books/v1/volumes?q=hobbit")
                let listed = try #require(Self.items(search).dropFirst().first)
                let id = try #require(Self.string(listed["id"]))
                let one = try await s.get("/books/v1/volumes/\(id)")
                #expect(one.status == 200, "\(one.text)")
                #expect(one.json?["kind"] == .string("books#volume"))
                #expect(one.json?["id"] == .string(id))
                #expect(one.json?["selfLink"] == .string("http://127.0.0.1/books/v1/volumes/\(id)"))
                #expect(one.json?["volumeInfo"] == listed["volumeInfo"])
                #expect(one.json?["etag"] == listed["etag"])
                let again = try await s.get("/books/v1/volumes/\(id)")
                #expect(again.header("X-Cache") == "HIT")
                #expect(s.stub.requests.filter { $0.path.hasPrefix(S.googleVolumePrefix) }.map(\.target) == ["/books/v1/volumes/\(id)"])

                // An ISBN lookup's minted id answers that book.
                let lookup = try await s.get("/books/v1/volumes?q=isbn:\(F.isbn10)")
                let minted = try #require(Self.string(Self.items(lookup).first?["id"]))
                #expect(minted.utf8.count == 12)
                let book = try await s.get("/books/v1/volumes/\(minted)")
                #expect(book.status == 200, "\(book.text)")
                #expect(book.json?["id"] == .string(minted))
                #expect(book.json?["volumeInfo"]?["title"] == .string("Fundamentals of Statistics"))

                // Open Library's items: a work's minted id is looked up again by its key; an
                // ISBN's minted id is the same id the ISBN lookup gave.
                s.stub.setFault(.status(503), for: S.googleSearchPath)
                let fallback = try await s.get("/books/v1/volumes?q=dragons&maxResults=2")
                let items = Self.items(fallback)
                #expect(Self.string(items.first?["id"]) == minted, "one book, one id, whichever way it was found")
                let workID = try #require(Self.string(items.dropFirst().first?["id"]))
                let work = try await s.get("/books/v1/volumes/\(workID)")
                #expect(work.status == 200, "\(work.text)")
                #expect(work.json?["id"] == .string(workID))
                #expect(work.json?["volumeInfo"]?["title"] == .string(S.openLibraryTitle(1)))
                #expect(Self.openLibraryTargets(s).last == "/search.json?q=key%3A%2Fworks%2FOL\(S.workNumber(1))W&" + Self.olFields + "&offset=0&limit=1")
                // Google was never asked for an id almanac minted.
                #expect(s.stub.requests.filter { $0.path.hasPrefix(S.googleVolumePrefix) }.count == 1)
            }
        }

        @Test func everyErrorUnderBooksV1IsInGooglesEnvelope() async throws {
            try await Self.run { s in
                let unknownRoute = try await s.get("/books/v1/bookshelves/7")
                #expect(unknownRoute.expectGoogleError(404, reason: "notFound", status: "NOT_FOUND").contains("/books/v1/bookshelves/7"))
                let method = try await s.get("/books/v1/volumes", method: "DELETE")
                _ = method.expectGoogleError(405, reason: "methodNotAllowed", status: "INVALID_ARGUMENT")
                #expect(method.header("Allow") != nil)
                let badISBN = try await s.get("/books/v1/volumes?q=isbn:9780306406158")
                #expect(badISBN.expectGoogleError(400).contains("not a valid ISBN"))
                let badPaging = try await s.get("/books/v1/volumes?q=hobbit&maxResults=41")
                #expect(badPaging.expectGoogleError(400).contains("maxResults"))
                let unknownID = try await s.get("/books/v1/volumes/zzzzzzzzzzzz")
                #expect(unknownID.expectGoogleError(404, reason: "notFound", status: "NOT_FOUND").contains("zzzzzzzzzzzz"))
                let notAnID = try await s.get("/books/v1/volumes/a.b")
                _ = notAnID.expectGoogleError(404, reason: "notFound", status: "NOT_FOUND")

                s.stub.setFault(.status(503), for: S.googleSearchPath)
                s.stub.setFault(.status(500), for: S.openLibrarySearchPath)
                let down = try await s.get("/books/v1/volumes?q=hobbit")
                let message = down.expectGoogleError(502, reason: "backendError", status: "UNAVAILABLE")
                #expect(message.contains("google-books") && message.contains("open-library"), "\(message)")
                // Not cached: the next search asks again.
                s.stub.setFault(nil, for: S.googleSearchPath)
                let back = try await s.get("/books/v1/volumes?q=hobbit")
                #expect(back.status == 200)

                // Everywhere else problem+json stays.
                let native = try await s.get("/v1/books/search?limit=41&q=hobbit")
                #expect(native.expectProblem(400).contains("limit"))
                let nothing = try await s.get("/v1/books/search?page=2")
                nothing.expectProblem(400)
                let elsewhere = try await s.get("/v1/nothing-here")
                elsewhere.expectProblem(404)
            }
        }

        @Test func nativeSearchShape() async throws {
            try await Self.run { s in
                let r = try await s.get("/v1/books/search?title=the%20hobbit&author=tolkien&page=2&limit=5")
                #expect(r.status == 200, "\(r.text)")
                #expect(r.keys == ["items", "limit", "page", "query", "source", "total"])
                #expect(r.json?["query"] == .object(["q": .null, "title": .string("the hobbit"), "author": .string("tolkien"),
                                                     "publisher": .null, "subject": .null]))
                #expect(r.json?["total"] == .number("25") && r.json?["page"] == .number("2") && r.json?["limit"] == .number("5"))
                #expect(r.json?["source"] == .string("google-books"))
                let items = Self.items(r)
                #expect(items.count == 5)
                #expect(FullStack.keys(items.first) == (BooksAPI.bookKeys + ["id"]).sorted())
                #expect(items.first?["id"] == .string(S.googleID(5)))
                #expect(items.first?["isbn13"] == .string(S.isbn13(5)))
                #expect(Self.googleTargets(s) == ["/books/v1/volumes?q=intitle%3A%22the%20hobbit%22%20inauthor%3A%22tolkien%22&startIndex=5&maxResults=5"])
            }
        }
    }
}

extension RawHTTPResponse {
    /// Checks Google's error envelope (`{"error":{"code","message","errors":[…],"status"}}`,
    /// `application/json`) and returns its message.
    func expectGoogleError(_ status: Int, reason: String = "invalid", status statusName: String = "INVALID_ARGUMENT",
                           sourceLocation: SourceLocation = #_sourceLocation) -> String {
        #expect(self.status == status, "status \(self.status): \(text)", sourceLocation: sourceLocation)
        #expect(header("Content-Type") == "application/json; charset=utf-8", sourceLocation: sourceLocation)
        #expect(header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        let error = json?["error"]
        #expect(keys == ["error"], "\(text)", sourceLocation: sourceLocation)
        #expect(error?["code"] == .number(String(status)), sourceLocation: sourceLocation)
        #expect(error?["status"] == .string(statusName), sourceLocation: sourceLocation)
        guard case let .string(message)? = error?["message"] else {
            Issue.record("no message: \(text)", sourceLocation: sourceLocation)
            return ""
        }
        #expect(error?["errors"] == .array([.object(["message": .string(message), "domain": .string("global"),
                                                     "reason": .string(reason)])]), sourceLocation: sourceLocation)
        return message
    }
}

extension FullStackTests.BookSearch {
    /// google-api-python-client's books v1, unmodified but for its endpoint (make test installs it).
    @Test func googleApiPythonClientListsAndGetsVolumes() async throws {
        try await Self.run { s in
            let expected = """
            {"isbn13":"\(F.isbn13)","isbn_title":"Fundamentals of Statistics","bad_isbn":"9780306406158","total":25,
             "page1_ids":[\((0..<5).map { "\"\(S.googleID($0))\"" }.joined(separator: ","))],
             "page2_ids":[\((5..<10).map { "\"\(S.googleID($0))\"" }.joined(separator: ","))]}
            """
            let script = repositoryRoot.appendingPathComponent("Tests/google-books/books_client_e2e.py")
            let result = try await PythonScript.run(script, environment: [
                "ALMANAC_BASE_URL": "http://127.0.0.1:\(s.port)", "EXPECTED_JSON": expected,
            ], timeout: 90)
            #expect(result.status == 0, "google-api-python-client (make test installs it):\n\(result.output)")
            #expect(result.output.contains("10 calls answered by almanac"), "\(result.output)")
            // The client's own key never went upstream.
            #expect(!s.stub.requests.contains { $0.target.contains("a-client-key") })
        }
    }
}

extension FullStackTests.BookSearch {
    /// Two spellings of one native search share the cached page, not their bytes or ETag (the
    /// query is echoed as given).
    @Test func nativeSpellingsShareThePageNotTheETag() async throws {
        try await Self.run { s in
            let byTitle = try await s.get("/v1/books/search?title=hobbit")
            let byQ = try await s.get("/v1/books/search?q=intitle:%22hobbit%22")
            #expect(byTitle.status == 200 && byQ.status == 200)
            #expect(byQ.header("X-Cache") == "HIT")
            #expect(s.count(S.googleSearchPath) == 1)
            #expect(byTitle.body != byQ.body)
            #expect(byTitle.header("ETag") != byQ.header("ETag"))
        }
    }
}

extension FullStackTests.BookSearch {
    /// An ISBN lookup Google answered carries Google's own volume id (not one almanac mints), in
    /// every spelling of the lookup, and `/books/v1/volumes/{id}` answers that id from Google.
    @Test func anISBNLookupGoogleAnsweredCarriesGooglesIdWhichRoundTrips() async throws {
        try await Self.run { s in
            let id = "zyTCAlFPjgYC"
            let withID = F.google.replacingOccurrences(of: #"{"kind":"books#volume","volumeInfo":{"title":"Fundamentals"#,
                                                       with: #"{"kind":"books#volume","id":"\#(id)","volumeInfo":{"title":"Fundamentals"#)
            #expect(withID != F.google)
            s.stub.route(F.googleTarget(F.isbn13), .json(withID))
            let volume = #"{"kind":"books#volume","id":"\#(id)","etag":"x1","volumeInfo":{"title":"Fundamentals of Statistics","#
                + #""industryIdentifiers":[{"type":"ISBN_13","identifier":"\#(F.isbn13)"}],"language":"en"}}"#
            s.stub.route(S.googleVolumePrefix + id, .json(volume))

            let lookup = try await s.get("/books/v1/volumes?q=isbn:\(F.isbn13)")
            #expect(lookup.status == 200, "\(lookup.text)")
            let item = try #require(Self.items(lookup).first)
            #expect(item["id"] == .string(id))
            #expect(item["selfLink"] == .string("http://127.0.0.1/books/v1/volumes/\(id)"))
            #expect(item["volumeInfo"]?["pageCount"] == .number("321"), "still the merged record (Open Library filled it)")
            for spelling in ["/books/v1/volumes?q=\(F.isbn10)", "/books/v1/volumes?q=ISBN:0-306-40615-2"] {
                let again = try await s.get(spelling)
                #expect(again.header("X-Cache") == "HIT", "\(spelling)")
                #expect(Self.items(again).first?["id"] == .string(id), "\(spelling)")
            }

            let one = try await s.get("/books/v1/volumes/\(id)")
            #expect(one.status == 200, "\(one.text)")
            #expect(one.json?["id"] == .string(id))
            #expect(one.json?["selfLink"] == .string("http://127.0.0.1/books/v1/volumes/\(id)"))
            #expect(one.json?["volumeInfo"]?["title"] == .string("Fundamentals of Statistics"))
            #expect(one.header("ETag") != nil)
            let cached = try await s.get("/books/v1/volumes/\(id)")
            #expect(cached.header("X-Cache") == "HIT")
            #expect(cached.header("ETag") == one.header("ETag"))
            #expect(s.stub.requests.filter { $0.path.hasPrefix(S.googleVolumePrefix) }.map(\.target) == ["/books/v1/volumes/\(id)"])
        }
    }
}
