import TestSupport
import Cache
import HTTPClient
import HTTPClientTestSupport
import Testing
import Upstream
@testable import Books

/// A problem encoder that shows which problem was stored, without the HTTP layer's format.
let testProblemEncoder: BooksProblem.Encoder = { Array("\($0.slug): \($0.detail)".utf8) }

func makeService(_ upstreams: Upstreams, configuration: BooksConfiguration = BooksConfiguration(),
                 clock: ManualCacheClock = ManualCacheClock()) -> (BooksService, StubHTTPClient, CacheStore) {
    let client = upstreams.client()
    let cache = CacheStore(limits: CacheLimits(), clock: clock, randomUnit: { 0 })
    return (BooksService(configuration: configuration, client: client, cache: cache, problemEncoder: testProblemEncoder), client, cache)
}

@Suite struct ProviderFallbackTests {
    @Test func googleNotFoundFallsThroughToOpenLibrary() async throws {
        var upstreams = Upstreams()
        upstreams.openLibrary = { _ in StubHTTPClient.json(Fixtures.openLibraryPragmatic) }
        let (service, client, _) = makeService(upstreams)
        let answer = try await service.book(isbn(Fixtures.pragmatic13))
        #expect(answer.value.book?.title == "The pragmatic programmer")
        #expect(answer.value.book?.source == "open-library")
        #expect(answer.value.book?.googleVolumeID == nil, "Google did not contribute: the volume id is minted")
        #expect(client.count("google-books") == 1)
        #expect(client.count("open-library") == 1)
    }

    @Test func google503FallsThroughToOpenLibrary() async throws {
        var upstreams = Upstreams()
        upstreams.google = { _ in StubHTTPClient.json(#"{"error":{"code":503}}"#, status: 503) }
        upstreams.openLibrary = { _ in StubHTTPClient.json(Fixtures.openLibraryPragmatic) }
        let (service, _, _) = makeService(upstreams)
        let answer = try await service.book(isbn(Fixtures.pragmatic13))
        #expect(answer.value.book?.source == "open-library")
        #expect(answer.outcome == .miss)
    }

    @Test func aCompleteFirstAnswerSpendsNoSecondQuota() async throws {
        var upstreams = Upstreams()
        upstreams.google = { _ in StubHTTPClient.json(Fixtures.googlePragmatic) }
        upstreams.openLibrary = { _ in StubHTTPClient.json(Fixtures.openLibraryPragmatic) }
        let (service, client, _) = makeService(upstreams)
        let book = try #require(try await service.book(isbn(Fixtures.pragmatic13)).value.book)
        #expect(book.source == "google-books")
        #expect(client.count("open-library") == 0)
    }

    @Test func missingFactsAreFilledFromTheNextProvider() async throws {
        var upstreams = Upstreams()
        upstreams.google = { _ in StubHTTPClient.json(Fixtures.googlePragmaticThin) }
        upstreams.openLibrary = { _ in StubHTTPClient.json(Fixtures.openLibraryPragmatic) }
        let (service, _, _) = makeService(upstreams)
        let book = try #require(try await service.book(isbn(Fixtures.pragmatic13)).value.book)
        #expect(book.source == "google-books+open-library")
        #expect(book.title == "The Pragmatic Programmer")     // first found wins
        #expect(book.publishedDate == "1999")                  // first found wins
        #expect(book.pageCount == 321)                         // filled
        #expect(book.publisher == "Addison-Wesley")            // filled
        #expect(book.subtitle == "from journeyman to master")  // filled
        #expect(book.categories == ["Computer programming", "Software engineering"])
        #expect(book.language == "en")
        #expect(book.coverURL == "https://covers.openlibrary.org/b/id/8090534-L.jpg?default=false")
        #expect(book.googleVolumeID == "5wBQEp6ruIAC", "Google contributed the record: its id is kept")
    }

    @Test func aFailingFillerKeepsTheBookFound() async throws {
        var upstreams = Upstreams()
        upstreams.google = { _ in StubHTTPClient.json(Fixtures.googlePragmaticThin) }
        upstreams.openLibrary = { _ in throw UpstreamError(.timeout, provider: "open-library", detail: "no answer") }
        let (service, _, _) = makeService(upstreams)
        let book = try #require(try await service.book(isbn(Fixtures.pragmatic13)).value.book)
        #expect(book.source == "google-books")
        #expect(book.pageCount == nil)
    }

    @Test func failuresWithNothingFoundAreThrownAndNotCached() async throws {
        var upstreams = Upstreams()
        upstreams.google = { _ in StubHTTPClient.json("", status: 429) }
        let (service, client, _) = makeService(upstreams)
        await #expect {
            try await service.book(isbn(Fixtures.pragmatic13))
        } throws: { error in
            // The status for clients; the (redacted) URL for the log line only.
            guard let failures = (error as? ProvidersUnavailable)?.failures, failures.count == 1 else { return false }
            return failures[0].provider == "google-books" && failures[0].kind == .other && failures[0].detail == "HTTP 429"
                && failures[0].url == "https://www.googleapis.com/books/v1/volumes?q=isbn:\(Fixtures.pragmatic13)"
        }
        #expect(service.cachedBook(isbn(Fixtures.pragmatic13)) == nil)
        _ = try? await service.book(isbn(Fixtures.pragmatic13))
        #expect(client.count("google-books") == 2)
    }

    @Test func allTimeoutsIsATimeout() async throws {
        var upstreams = Upstreams()
        upstreams.google = { _ in throw UpstreamError(.timeout, provider: "google-books", detail: "5000 ms") }
        upstreams.openLibrary = { _ in throw UpstreamError(.timeout, provider: "open-library", detail: "5000 ms") }
        let (service, _, _) = makeService(upstreams)
        do {
            _ = try await service.book(isbn(Fixtures.pragmatic13))
            Issue.record("expected a failure")
        } catch let failed as ProvidersUnavailable {
            #expect(failed.isTimeout)
            #expect(failed.failures.map(\.provider) == ["google-books", "open-library"])
        }
    }

    @Test func oneTimeoutAndOneGarbageIsNotATimeout() async throws {
        var upstreams = Upstreams()
        upstreams.google = { _ in throw UpstreamError(.timeout, provider: "google-books", detail: "5000 ms") }
        upstreams.openLibrary = { _ in StubHTTPClient.json("[]") }
        let (service, _, _) = makeService(upstreams)
        do {
            _ = try await service.book(isbn(Fixtures.pragmatic13))
            Issue.record("expected a failure")
        } catch let failed as ProvidersUnavailable {
            #expect(!failed.isTimeout)
            #expect(failed.failures.last?.kind == .malformed)
        }
    }

    @Test func configuredOrderIsHonoured() async throws {
        var configuration = BooksConfiguration()
        configuration.providers = ["open-library", "google-books"]
        var upstreams = Upstreams()
        upstreams.google = { _ in StubHTTPClient.json(Fixtures.googlePragmatic) }
        upstreams.openLibrary = { _ in StubHTTPClient.json(Fixtures.openLibraryPragmatic) }
        let (service, client, _) = makeService(upstreams, configuration: configuration)
        let book = try #require(try await service.book(isbn(Fixtures.pragmatic13)).value.book)
        #expect(book.source == "open-library+google-books")
        #expect(book.title == "The pragmatic programmer")
        #expect(book.description != nil)       // Open Library has none: filled from Google
        #expect(client.requests.map(\.provider) == ["open-library", "google-books"])
        #expect(book.googleVolumeID == "5wBQEp6ruIAC", "a filler's Google id is kept too")
    }
}

@Suite struct BooksCachingTests {
    @Test func notFoundIsCachedForNotFoundTTL() async throws {
        let clock = ManualCacheClock()
        let (service, client, _) = makeService(Upstreams(), clock: clock)
        let first = try await service.book(isbn("0306406152"))
        #expect(first.value.book == nil)
        #expect(first.value.body == Array("book-not-found: No configured provider knows ISBN 9780306406157.".utf8))
        #expect(first.freshnessLeftSeconds == 3600)

        // Same book spelled as ISBN-13 with hyphens: one entry, no new upstream request.
        let second = try #require(service.cachedBook(isbn("978-0-306-40615-7")))
        #expect(second.outcome == .hit)
        #expect(client.count("google-books") == 1)
        #expect(client.count("open-library") == 1)

        clock.advance(by: 3601)
        #expect(service.cachedBook(isbn("0306406152")) == nil)
    }

    @Test func foundIsCachedForTTL() async throws {
        var upstreams = Upstreams()
        upstreams.google = { _ in StubHTTPClient.json(Fixtures.googlePragmatic) }
        let (service, client, _) = makeService(upstreams)
        let first = try await service.book(isbn(Fixtures.pragmatic13))
        #expect(first.freshnessLeftSeconds == 86_400)
        let again = try await service.book(isbn(Fixtures.pragmatic10))
        #expect(again.outcome == .hit)
        #expect(again.validator == first.validator)
        #expect(client.requests.count == 1)
    }

    @Test func concurrentLookupsOfOneISBNMakeOneRequestPerProvider() async throws {
        let gate = Gate()
        var upstreams = Upstreams()
        upstreams.google = { _ in await gate.wait(); return StubHTTPClient.json(Fixtures.googlePragmaticThin) }
        upstreams.openLibrary = { _ in await gate.wait(); return StubHTTPClient.json(Fixtures.openLibraryPragmatic) }
        let (service, client, cache) = makeService(upstreams)
        try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<100 {
                group.addTask { try await service.book(isbn(i % 2 == 0 ? Fixtures.pragmatic13 : "0-201-61622-x")).value.book?.source ?? "" }
            }
            // Hold the upstreams until all 100 callers are waiting on the one load.
            #expect(await waitUntil(timeout: 30) { cache.stats()["books"]?.misses == 100 }, "all 100 callers waiting on the one load")
            gate.open()
            for try await source in group { #expect(source == "google-books+open-library") }
        }
        #expect(client.count("google-books") == 1)
        #expect(client.count("open-library") == 1)
    }
}

