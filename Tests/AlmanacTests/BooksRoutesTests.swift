import TestSupport
import Books
import Cache
import Foundation
import HTTPClient
import HTTPClientTestSupport
import HTTP1
import Web
import Synchronization
import Testing
@testable import Almanac

/// Recorded upstream answers (see BooksTests/Fixtures.swift for the full ones).
enum BooksFixtures {
    static let google = """
    {"kind":"books#volumes","totalItems":2,"items":[
      {"kind":"books#volume","id":"LhOlDwAAQBAJ","volumeInfo":{"title":"The Pragmatic Programmer",
        "subtitle":"Your journey to mastery, 20th Anniversary Edition","authors":["David Thomas","Andrew Hunt"],
        "industryIdentifiers":[{"type":"ISBN_13","identifier":"9780135956977"}],"pageCount":390}},
      {"kind":"books#volume","id":"5wBQEp6ruIAC","volumeInfo":{"title":"The Pragmatic Programmer",
        "subtitle":"From Journeyman to Master","authors":["Andrew Hunt","David Thomas"],
        "publisher":"Addison-Wesley Professional","publishedDate":"1999-10-20",
        "description":"Straight from the programming trenches.",
        "industryIdentifiers":[{"type":"ISBN_10","identifier":"020161622X"},{"type":"ISBN_13","identifier":"9780201616224"}],
        "pageCount":352,"categories":["Computers"],"language":"en",
        "imageLinks":{"smallThumbnail":"http://books.google.com/books/content?id=5wBQEp6ruIAC&printsec=frontcover&img=1&zoom=5&source=gbs_api",
                      "thumbnail":"http://books.google.com/books/content?id=5wBQEp6ruIAC&printsec=frontcover&img=1&zoom=1&source=gbs_api"}}}]}
    """
    static let openLibrary = """
    {"ISBN:9780201616224":{"title":"The pragmatic programmer","authors":[{"name":"Andrew Hunt"},{"name":"David Thomas"}],
      "number_of_pages":321,"publishers":[{"name":"Addison-Wesley"}],"publish_date":"2000",
      "cover":{"large":"https://covers.openlibrary.org/b/id/8090534-L.jpg"}}}
    """
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0xFF, 0xD9]
}

/// The books routes on a router with a real cache and scripted upstreams (by host).
struct BooksHarness {
    let router: Router
    /// `router` behind the app's pipeline.
    let responder: HTTPServer.Responder
    let client: StubHTTPClient
    let cache: CacheStore
    let clock = ManualCacheClock()

    typealias Script = @Sendable (UpstreamRequest) async throws -> UpstreamResponse

    init(configuration: BooksConfiguration = BooksConfiguration(),
         links: PublicLinks = PublicLinks(),
         google: @escaping Script = { _ in StubHTTPClient.json(UpstreamFixtures.googleNotFound) },
         openLibrary: @escaping Script = { _ in StubHTTPClient.json("{}") },
         covers: @escaping Script = { _ in
             UpstreamResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: BooksFixtures.jpeg)
         }) {
        client = StubHTTPClient { request in
            if request.url.hasPrefix("https://www.googleapis.com/") { return try await google(request) }
            if request.url.hasPrefix("https://openlibrary.org/") { return try await openLibrary(request) }
            return try await covers(request)
        }
        cache = CacheStore(limits: CacheLimits(), clock: clock, randomUnit: { 0 })
        var router = Router()
        BooksRoutes.register(on: &router, service: BooksService(configuration: configuration, client: client, cache: cache),
                             links: links)
        self.router = router
        responder = pipelined(router)
    }

    static func foundOnGoogle(links: PublicLinks = PublicLinks()) -> BooksHarness {
        BooksHarness(links: links, google: { _ in StubHTTPClient.json(BooksFixtures.google) })
    }

    /// Requests carry `Host: almanac.test` unless `headers` name one.
    func future(_ target: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponseFuture {
        var headers = headers
        if headers["Host"] == nil { headers.add("Host", "almanac.test") }
        return responder(HTTPRequest(method: "GET", target: target, headers: headers))
    }

    func get(_ target: String, headers: HTTPHeaders = HTTPHeaders()) async -> HTTPResponse {
        await awaited(future(target, headers: headers))
    }

    func isReady(_ target: String) -> Bool {
        if case .ready = future(target) { return true }
        return false
    }

    func count(_ provider: String) -> Int { client.requests.filter { $0.provider == provider }.count }
}

func json(_ response: HTTPResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
}

@Suite struct BooksRoutesTests {
    @Test func bookShapeAndCacheHeaders() async throws {
        let harness = BooksHarness.foundOnGoogle()
        let response = await harness.get("/v1/books/0-201-61622-X")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.headers["X-Cache"] == "MISS")
        #expect(response.headers["Cache-Control"] == "public, max-age=86400")
        let etag = try #require(response.headers["ETag"])
        #expect(String(decoding: response.body, as: UTF8.self) == """
            {"isbn13":"9780201616224","isbn10":"020161622X","title":"The Pragmatic Programmer",\
            "subtitle":"From Journeyman to Master","authors":["Andrew Hunt","David Thomas"],\
            "publisher":"Addison-Wesley Professional","publishedDate":"1999-10-20","pageCount":352,\
            "language":"en","description":"Straight from the programming trenches.","categories":["Computers"],\
            "cover":"/v1/books/9780201616224/cover","source":"google-books"}
            """)

        // The other spelling is the same entry, answered synchronously from the cache.
        #expect(harness.isReady("/v1/books/9780201616224"))
        let hit = await harness.get("/v1/books/978-0-201-61622-4")
        #expect(hit.headers["X-Cache"] == "HIT")
        #expect(hit.headers["ETag"] == etag)
        #expect(hit.body == response.body)
        let notModified = await harness.get("/v1/books/9780201616224", headers: ["If-None-Match": etag])
        #expect(notModified.status == .notModified)
        #expect(notModified.body.isEmpty)
        #expect(harness.client.requests.count == 1)
    }

    @Test func absentFactsAreNullOrEmpty() throws {
        let book = Book(isbn: try ISBN(parsing: "9791009063608"), title: "Titre", sources: ["open-library"])
        #expect(BooksRenderer.bookJSON(book) == """
            {"isbn13":"9791009063608","isbn10":null,"title":"Titre","subtitle":null,"authors":[],\
            "publisher":null,"publishedDate":null,"pageCount":null,"language":null,"description":null,\
            "categories":[],"cover":null,"source":"open-library"}
            """)
    }

    @Test func unknownBookIsACached404() async throws {
        let harness = BooksHarness()
        let first = await harness.get("/v1/books/9780306406157")
        #expect(first.status == .notFound)
        #expect(first.headers["Content-Type"] == "application/problem+json")
        #expect(first.headers["Cache-Control"] == "public, max-age=3600")
        #expect(first.headers["X-Cache"] == "MISS")
        #expect(first.headers["ETag"] != nil)
        let problem = try json(first)
        #expect(problem["status"] as? Int == 404)
        #expect((problem["type"] as? String)?.hasSuffix("#book-not-found") == true)

        #expect(harness.isReady("/v1/books/0306406152"))
        let second = await harness.get("/v1/books/0306406152")
        #expect(second.status == .notFound)
        #expect(second.headers["X-Cache"] == "HIT")
        #expect(second.headers["Cache-Control"] == "public, max-age=3600")
        #expect(harness.count("google-books") == 1)
        #expect(harness.count("open-library") == 1)
    }

    @Test(arguments: [
        ("/v1/books/9780306406158", "check digit should be 7"),
        ("/v1/books/978030640615", "ISBN must have 10 or 13 digits, got 12"),
        ("/v1/books/030Q406152", "unexpected character 'Q' at position 4"),
        ("/v1/books/9780306406157&key=x", "unexpected character '&' at position 14"),
        ("/v1/books/9780306406157%26key=x", "unexpected character '&' at position 14"),
        ("/v1/books/9780306406157%3Fq=x", "unexpected character '?' at position 14"),
        ("/v1/books/9780306406157%23x", "unexpected character '#' at position 14"),
        ("/v1/books/9780306406157%20OR%201", "unexpected character 'O' at position 15"),
    ])
    func invalidISBNIs400WithTheReasonAndNoUpstreamRequest(target: String, reason: String) async throws {
        let harness = BooksHarness()
        let response = await harness.get(target)
        #expect(response.status == .badRequest)
        #expect(response.headers["Cache-Control"] == "no-store")
        let detail = try #require(try json(response)["detail"] as? String)
        #expect(detail.contains(reason), "\(detail)")
        #expect(harness.client.requests.isEmpty)
    }

    @Test func upstreamURLsOnlyEverCarryTheCanonicalISBN() async throws {
        var configuration = BooksConfiguration()
        configuration.googleBooks.apiKey = "k"
        let harness = BooksHarness(configuration: configuration)
        _ = await harness.get("/v1/books/%20978-0-306%2040615-7?key=evil&country=XX")
        _ = await harness.get("/books/v1/volumes?q=isbn:0-306-40615-2&key=evil")
        #expect(Set(harness.client.requests.map(\.url)) == [
            "https://www.googleapis.com/books/v1/volumes?q=isbn:9780306406157&key=k",
            "https://openlibrary.org/api/books?bibkeys=ISBN:9780306406157&format=json&jscmd=data",
        ])
        #expect(harness.client.requests.allSatisfy { $0.provider != "google-books" || $0.secretQueryParameters == ["key"] })
    }

    @Test func failuresAre502Or504AndNotCached() async throws {
        let failing = BooksHarness(google: { _ in StubHTTPClient.json("", status: 503) },
                                   openLibrary: { _ in StubHTTPClient.json("<html>", status: 200) })
        let bad = await failing.get("/v1/books/9780306406157")
        #expect(bad.status == .badGateway)
        #expect(bad.headers["Cache-Control"] == "no-store")
        let detail = try #require(try json(bad)["detail"] as? String)
        #expect(detail.contains("google-books") && detail.contains("open-library"))
        #expect(!failing.isReady("/v1/books/9780306406157"))

        let slow = BooksHarness(google: { _ in throw UpstreamError(.timeout, provider: "google-books", detail: "5000 ms") },
                                openLibrary: { _ in throw UpstreamError(.timeout, provider: "open-library", detail: "5000 ms") })
        #expect(await slow.get("/v1/books/9780306406157").status == .gatewayTimeout)
    }

    @Test func expiredAnswerIsServedStaleAndRefreshedOnce() async throws {
        let harness = BooksHarness.foundOnGoogle()
        #expect(await harness.get("/v1/books/9780201616224").headers["X-Cache"] == "MISS")
        harness.clock.advance(by: 86_401)
        #expect(!harness.isReady("/v1/books/9780201616224"))
        let stale = await harness.get("/v1/books/9780201616224")
        #expect(stale.status == .ok)
        #expect(stale.headers["X-Cache"] == "STALE")
        #expect(stale.headers["Cache-Control"] == "public, max-age=0")
        // One background refresh; wait for it to land rather than for time to pass.
        #expect(await waitUntil(timeout: 30) { harness.isReady("/v1/books/9780201616224") }, "the refresh landed")
        #expect(await harness.get("/v1/books/9780201616224").headers["X-Cache"] == "HIT")
        #expect(harness.count("google-books") == 2)
    }

    @Test func hundredConcurrentRequestsMakeOneRequestPerProvider() async throws {
        let gate = Gate()
        let harness = BooksHarness(
            google: { _ in await gate.wait(); return StubHTTPClient.json(UpstreamFixtures.googleNotFound) },
            openLibrary: { _ in await gate.wait(); return StubHTTPClient.json(BooksFixtures.openLibrary) })
        await withTaskGroup(of: HTTPStatus.self) { group in
            for i in 0..<100 {
                group.addTask { await harness.get(i % 2 == 0 ? "/v1/books/9780201616224" : "/v1/books/020161622x").status }
            }
            #expect(await waitUntil(timeout: 30) { harness.cache.stats()["books"]?.misses == 100 },
                    "all 100 callers waiting on the one load")
            gate.open()
            for await status in group { #expect(status == .ok) }
        }
        #expect(harness.count("google-books") == 1)
        #expect(harness.count("open-library") == 1)
    }
}

