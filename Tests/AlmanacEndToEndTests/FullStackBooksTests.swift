import Foundation
import HTTPClientTestSupport
import Rates
import Testing
@testable import Almanac

extension FullStackTests {
    /// The books endpoints over real sockets, Google Books and Open Library emulated by the stub.
    @Suite struct BooksAPI {
        static let bookKeys = ["authors", "categories", "cover", "description", "isbn10", "isbn13", "language",
                               "pageCount", "publishedDate", "publisher", "source", "subtitle", "title"]

        @Test func isbn10AndHyphenatedIsbn13ShareOneCacheEntry() async throws {
            try await FullStack.run { s in
                let first = try await s.get("/v1/books/\(F.isbn10)")
                #expect(first.status == 200, "\(first.text)")
                #expect(first.header("Content-Type") == "application/json; charset=utf-8")
                #expect(first.header("X-Cache") == "MISS")
                #expect(first.keys == Self.bookKeys)
                let book = try #require(first.json)
                #expect(book["isbn13"] == .string(F.isbn13))
                #expect(book["isbn10"] == .string(F.isbn10))
                // Google's matching item (not items[0]), completed by Open Library.
                #expect(book["title"] == .string("Fundamentals of Statistics"))
                #expect(book["subtitle"] == .string("A primer"))
                #expect(book["authors"] == .array([.string("Ada Example"), .string("Bo Sample")]))
                #expect(book["publisher"] == .string("Example Press"))
                #expect(book["publishedDate"] == .string("1986"))
                #expect(book["pageCount"] == .number("321"))
                #expect(book["language"] == .string("en"))
                #expect(book["description"] == .string("Numbers, explained."))
                #expect(book["categories"] == .array([.string("Mathematics")]))
                #expect(book["cover"] == .string("/v1/books/\(F.isbn13)/cover"))
                #expect(book["source"] == .string("google-books+open-library"))

                let second = try await s.get("/v1/books/978-0-306-40615-7")
                #expect(second.status == 200)
                #expect(second.header("X-Cache") == "HIT")
                #expect(second.body == first.body)
                #expect(second.header("ETag") == first.header("ETag"))
                #expect(s.count(F.googlePath) == 1)
                #expect(s.count(F.openLibraryPath) == 1)
                // The exact upstream requests (docs/books.md "Providers, fallback and merge"), by canonical ISBN-13.
                let targets = s.stub.requests.map(\.target)
                #expect(targets.contains(F.googleTarget(F.isbn13)))
                #expect(targets.contains(F.openLibraryTarget(F.isbn13)))
            }
        }

        @Test func googleFailureFallsThroughToOpenLibrary() async throws {
            try await FullStack.run { s in
                s.stub.setFault(.status(503), for: F.googlePath)
                let r = try await s.get("/v1/books/\(F.isbn13)")
                #expect(r.status == 200, "\(r.text)")
                #expect(r.json?["source"] == .string("open-library"))
                #expect(r.json?["title"] == .string("Fundamentals of statistics"))
                #expect(r.json?["authors"] == .array([.string("A. Example")]))
                #expect(r.json?["publisher"] == .string("Example Press Ltd"))
                #expect(r.json?["categories"] == .array([.string("Statistics")]))
                #expect(r.json?["description"] == .null)
                #expect(s.count(F.googlePath) == 1)
                #expect(s.count(F.openLibraryPath) == 1)
            }
        }

        @Test func unknownBookIsACachedNotFound() async throws {
            try await FullStack.run { s in
                let first = try await s.get("/v1/books/\(F.unknown13)")
                let detail = first.expectProblem(404)
                #expect(detail.contains(F.unknown13), "\(detail)")
                #expect(first.header("X-Cache") == "MISS")
                let age = try #require(maxAge(first), "Cache-Control: \(first.header("Cache-Control") ?? "none")")
                #expect(age > 0 && age <= 3600)
                #expect(first.header("ETag") != nil)
                #expect(s.count(F.googlePath) == 1)
                #expect(s.count(F.openLibraryPath) == 1)

                let second = try await s.get("/v1/books/\(F.unknown13)")
                second.expectProblem(404)
                #expect(second.header("X-Cache") == "HIT")
                #expect(second.header("Cache-Control") != "no-store")
                #expect(maxAge(second) != nil)
                #expect(second.body == first.body)
                #expect(s.count(F.googlePath) == 1)
                #expect(s.count(F.openLibraryPath) == 1)
            }
        }

        @Test func badIsbnIsABadRequestWithTheReason() async throws {
            try await FullStack.run { s in
                let checkDigit = try await s.get("/v1/books/9780306406158")
                let detail = checkDigit.expectProblem(400)
                #expect(detail.contains("check digit should be 7"), "\(detail)")
                #expect(checkDigit.header("Cache-Control") == "no-store")

                let length = try await s.get("/v1/books/12345")
                #expect(length.expectProblem(400).contains("10 or 13 digits"))

                let letters = try await s.get("/v1/books/abc")
                letters.expectProblem(400)
                #expect(s.stub.totalRequests == 0)
            }
        }

        @Test func coverBytesWithTheImageType() async throws {
            try await FullStack.run { s in
                let cover = try await s.get("/v1/books/\(F.isbn10)/cover")
                #expect(cover.status == 200, "\(cover.text)")
                #expect(cover.header("Content-Type") == "image/jpeg")
                #expect(cover.body == F.jpeg)
                #expect(cover.header("X-Content-Type-Options") == "nosniff")
                #expect(cover.header("X-Cache") == "MISS")
                #expect(cover.header("ETag") != nil)
                // Fetched from the configured covers host, largest size, with default=false.
                let fetched = s.stub.requests.filter { $0.path == F.coverPath }
                #expect(fetched.count == 1)
                #expect(fetched.first?.query == "default=false")

                let again = try await s.get("/v1/books/\(F.isbn13)/cover")
                #expect(again.status == 200)
                #expect(again.header("X-Cache") == "HIT")
                #expect(again.body == F.jpeg)
                #expect(s.count(F.coverPath) == 1)
                #expect(s.count(F.googlePath) == 1)
            }
        }

        @Test func batchLookup() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/v1/books?isbn=\(F.isbn10),\(F.unknown13),bad")
                #expect(r.status == 200, "\(r.text)")
                #expect(r.keys == ["results"])
                let results = r.json?["results"]
                #expect(FullStack.keys(results) == [F.isbn10, F.unknown13, "bad"].sorted())
                #expect(results?[F.isbn10]?["isbn13"] == .string(F.isbn13))
                #expect(results?[F.isbn10]?["title"] == .string("Fundamentals of Statistics"))
                #expect(results?[F.unknown13]?["error"]?["status"] == .number("404"))
                #expect(results?["bad"]?["error"]?["status"] == .number("400"))
                if case let .string(detail)? = results?["bad"]?["error"]?["detail"] {
                    #expect(detail.contains("'bad'"), "\(detail)")
                } else {
                    Issue.record("no detail for the bad ISBN")
                }
                // Both lookups went out once each, and are cached for the single lookups.
                #expect(s.count(F.googlePath) == 2)
                let single = try await s.get("/v1/books/\(F.isbn13)")
                #expect(single.header("X-Cache") == "HIT")
                #expect(s.count(F.googlePath) == 2)
            }
        }

        @Test func googleCompatibleVolumes() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/books/v1/volumes?q=isbn:\(F.isbn13)")
                #expect(r.status == 200, "\(r.text)")
                #expect(r.json?["kind"] == .string("books#volumes"))
                #expect(r.json?["totalItems"] == .number("1"))
                guard case let .array(items)? = r.json?["items"], let item = items.first else {
                    Issue.record("no items: \(r.text)")
                    return
                }
                #expect(items.count == 1)
                #expect(item["kind"] == .string("books#volume"))
                let info = item["volumeInfo"]
                #expect(info?["title"] == .string("Fundamentals of Statistics"))
                #expect(info?["authors"] == .array([.string("Ada Example"), .string("Bo Sample")]))
                #expect(info?["pageCount"] == .number("321"))
                #expect(info?["industryIdentifiers"] == .array([
                    .object(["type": .string("ISBN_13"), "identifier": .string(F.isbn13)]),
                    .object(["type": .string("ISBN_10"), "identifier": .string(F.isbn10)]),
                ]))
                if case let .string(thumbnail)? = info?["imageLinks"]?["thumbnail"] {
                    // almanac's own cover endpoint, absolute from the request's Host.
                    #expect(thumbnail == "http://127.0.0.1/v1/books/\(F.isbn13)/cover", "\(thumbnail)")
                } else {
                    Issue.record("no imageLinks.thumbnail")
                }

                let bare = try await s.get("/books/v1/volumes?q=\(F.isbn10)")
                #expect(bare.status == 200)
                #expect(bare.header("X-Cache") == "HIT")

                let unknown = try await s.get("/books/v1/volumes?q=isbn:\(F.unknown13)")
                #expect(unknown.status == 200)
                #expect(unknown.json == .object(["kind": .string("books#volumes"), "totalItems": .number("0")]))

            }
        }

        @Test func encodedQueryInThePathNeverReachesTheUpstream() async throws {
            try await FullStack.run(configure: { c in
                c.books.googleBooks.apiKey = "configured-key"
            }) { s in
                let injected = try await s.get("/v1/books/9780306406157%26key%3Dx")
                let detail = injected.expectProblem(400)
                #expect(detail.contains("not a valid ISBN"), "\(detail)")
                let injectedCover = try await s.get("/v1/books/9780306406157%26key%3Dx/cover")
                injectedCover.expectProblem(400)
                let injectedVolumes = try await s.get("/books/v1/volumes?q=isbn:9780306406157%26key%3Dx")
                _ = injectedVolumes.expectGoogleError(400)
                #expect(s.stub.totalRequests == 0)

                // A real lookup sends the configured key, and only it.
                let ok = try await s.get("/v1/books/\(F.isbn13)")
                #expect(ok.status == 200)
                let google = s.stub.requests.filter { $0.path == F.googlePath }
                #expect(google.count == 1)
                #expect(google.allSatisfy { $0.query == "q=isbn:\(F.isbn13)&key=configured-key" })
                #expect(s.stub.requests.allSatisfy { !$0.target.contains("key=x") })
                // The key is a secret: never in a log line.
                #expect(!s.logs.lines.contains { $0.contains("configured-key") })
            }
        }
    }
}
