import Books
import Foundation
import HTTPClientTestSupport
import HTTP1
import Testing
@testable import Almanac

@Suite struct BooksBatchTests {
    @Test func mixedBatchAnswersPerItem() async throws {
        let harness = BooksHarness.foundOnGoogle()
        let response = await harness.get("/v1/books?isbn=020161622X,978-0-201-61622-4,9780306406157,978-0-306-40615-8")
        #expect(response.status == .ok)
        let results = try #require(try json(response)["results"] as? [String: [String: Any]])
        #expect(Set(results.keys) == ["020161622X", "978-0-201-61622-4", "9780306406157", "978-0-306-40615-8"])
        #expect(results["020161622X"]?["title"] as? String == "The Pragmatic Programmer")
        #expect(results["978-0-201-61622-4"]?["isbn13"] as? String == "9780201616224")
        let notFound = try #require(results["9780306406157"]?["error"] as? [String: Any])
        #expect(notFound["status"] as? Int == 404)
        let invalid = try #require(results["978-0-306-40615-8"]?["error"] as? [String: Any])
        #expect(invalid["status"] as? Int == 400)
        #expect((invalid["detail"] as? String)?.contains("check digit should be 7") == true)
        // Two spellings of one book share one lookup.
        #expect(harness.client.requests.filter { $0.url.contains("9780201616224") }.count == 1)
        // Keys come back in the order given.
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.hasPrefix(#"{"results":{"020161622X":{"isbn13""#))
        #expect(response.headers["Cache-Control"] == "public, max-age=3600")

        // Everything is cached now: the whole batch is answered synchronously.
        #expect(harness.isReady("/v1/books?isbn=020161622X,9780306406157"))
    }

    @Test func anUpstreamFailureIsPerItemAndNotStored() async throws {
        let harness = BooksHarness(google: { _ in StubHTTPClient.json("", status: 500) },
                                   openLibrary: { _ in StubHTTPClient.json("", status: 500) })
        let response = await harness.get("/v1/books?isbn=9780306406157")
        #expect(response.status == .ok)
        #expect(response.headers["Cache-Control"] == "no-store")
        let results = try #require(try json(response)["results"] as? [String: [String: Any]])
        #expect((results["9780306406157"]?["error"] as? [String: Any])?["status"] as? Int == 502)
    }

    @Test func moreThanTwentyIs400() async throws {
        let harness = BooksHarness()
        let list = (0..<21).map { String(format: "97803064061%02d", $0) }.joined(separator: ",")
        let response = await harness.get("/v1/books?isbn=" + list)
        #expect(response.status == .badRequest)
        #expect((try json(response)["detail"] as? String)?.contains("At most 20 ISBNs per request, got 21") == true)
        #expect(harness.client.requests.isEmpty)
    }

    @Test func missingOrEmptyListIs400() async {
        let harness = BooksHarness()
        #expect(await harness.get("/v1/books").status == .badRequest)
        #expect(await harness.get("/v1/books?isbn=,").status == .badRequest)
    }
}

@Suite struct BooksVolumesTests {
    @Test(arguments: ["/books/v1/volumes?q=isbn:9780201616224", "/books/v1/volumes?q=9780201616224",
                      "/books/v1/volumes?q=ISBN:0-201-61622-x&key=ignored"])
    func googleCompatibleShape(target: String) async throws {
        let harness = BooksHarness.foundOnGoogle()
        let response = await harness.get(target)
        #expect(response.status == .ok)
        #expect(response.headers["X-Cache"] == "MISS")
        let body = try json(response)
        #expect(body["kind"] as? String == "books#volumes")
        #expect(body["totalItems"] as? Int == 1)
        let items = try #require(body["items"] as? [[String: Any]])
        #expect(items.count == 1)
        #expect(items[0]["kind"] as? String == "books#volume")
        // Google answered the lookup: its own id for the volume, and the self link follows it.
        #expect(items[0]["id"] as? String == "5wBQEp6ruIAC")
        #expect(items[0]["selfLink"] as? String == "http://almanac.test/books/v1/volumes/5wBQEp6ruIAC")
        let info = try #require(items[0]["volumeInfo"] as? [String: Any])
        #expect(info["title"] as? String == "The Pragmatic Programmer")
        #expect(info["authors"] as? [String] == ["Andrew Hunt", "David Thomas"])
        #expect(info["pageCount"] as? Int == 352)
        let identifiers = try #require(info["industryIdentifiers"] as? [[String: String]])
        #expect(identifiers == [["type": "ISBN_13", "identifier": "9780201616224"], ["type": "ISBN_10", "identifier": "020161622X"]])
        let links = try #require(info["imageLinks"] as? [String: String])
        // almanac's own cover endpoint, never the upstream's image URL.
        #expect(links == ["thumbnail": "http://almanac.test/v1/books/9780201616224/cover",
                          "smallThumbnail": "http://almanac.test/v1/books/9780201616224/cover"])
        #expect(!String(decoding: response.body, as: UTF8.self).contains("google"))
    }

    @Test func notFoundIsZeroItemsLikeGoogle() async throws {
        let harness = BooksHarness()
        let response = await harness.get("/books/v1/volumes?q=isbn:9780306406157")
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == UpstreamFixtures.googleNotFound)
        #expect(response.headers["Cache-Control"] == "public, max-age=3600")
        // Shares the /v1/books entry, but not its ETag (different bytes).
        let v1 = await harness.get("/v1/books/9780306406157")
        #expect(v1.headers["X-Cache"] == "HIT")
        #expect(v1.headers["ETag"] != response.headers["ETag"])
    }

    /// Malformed ISBNs and malformed searches are 400s in Google's envelope, before any upstream.
    @Test(arguments: ["/books/v1/volumes?q=isbn:123", "/books/v1/volumes", "/books/v1/volumes?q=+",
                      "/books/v1/volumes?q=hobbit&maxResults=41", "/books/v1/volumes?q=hobbit&maxResults=0",
                      "/books/v1/volumes?q=hobbit&startIndex=-1", "/books/v1/volumes?q=intitle:",
                      "/books/v1/volumes?q=%22open+phrase", "/books/v1/volumes?q=hobbit&orderBy=oldest",
                      "/books/v1/volumes?q=hobbit&printType=films", "/books/v1/volumes?q=hobbit&projection=max",
                      "/books/v1/volumes?q=hobbit&langRestrict=english!"])
    func malformedQueriesAre400InGooglesEnvelope(target: String) async throws {
        let harness = BooksHarness()
        let response = await harness.get(target)
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        let error = try #require(try json(response)["error"] as? [String: Any])
        #expect(error["code"] as? Int == 400)
        #expect(error["status"] as? String == "INVALID_ARGUMENT")
        #expect(!((error["message"] as? String) ?? "").isEmpty)
        #expect(harness.client.requests.isEmpty)
    }
}

@Suite struct BooksCoverRouteTests {
    @Test func coverBytesTypeAndCaching() async throws {
        let harness = BooksHarness.foundOnGoogle()
        let response = await harness.get("/v1/books/020161622X/cover")
        #expect(response.status == .ok)
        #expect(response.body == BooksFixtures.jpeg)
        #expect(response.headers["Content-Type"] == "image/jpeg")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["X-Cache"] == "MISS")
        #expect(harness.isReady("/v1/books/9780201616224/cover"))
        #expect(await harness.get("/v1/books/9780201616224/cover").headers["X-Cache"] == "HIT")
        #expect(harness.client.requests.filter { $0.url.hasPrefix("https://books.google.com/") }.count == 1)
    }

    @Test func nonImageIs502() async throws {
        let harness = BooksHarness(google: { _ in StubHTTPClient.json(BooksFixtures.google) },
                                   covers: { _ in StubHTTPClient.json("{}") })
        let response = await harness.get("/v1/books/9780201616224/cover")
        #expect(response.status == .badGateway)
        #expect((try json(response)["detail"] as? String)?.contains("is not an image") == true)
    }

    @Test func noCoverAndUnknownBookAre404() async throws {
        let thin = #"{"totalItems":1,"items":[{"volumeInfo":{"title":"x","industryIdentifiers":[{"type":"ISBN_13","identifier":"9780201616224"}]}}]}"#
        let harness = BooksHarness(google: { _ in StubHTTPClient.json(thin) })
        let noCover = await harness.get("/v1/books/9780201616224/cover")
        #expect(noCover.status == .notFound)
        #expect((try json(noCover)["type"] as? String)?.hasSuffix("#cover-not-found") == true)
        let unknown = await harness.get("/v1/books/9780306406157/cover")
        #expect(unknown.status == .notFound)
        #expect((try json(unknown)["type"] as? String)?.hasSuffix("#book-not-found") == true)
        #expect(unknown.headers["Cache-Control"] == "public, max-age=3600")
    }
}
