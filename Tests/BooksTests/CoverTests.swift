import Cache
import HTTPClient
import HTTPClientTestSupport
import Testing
@testable import Books

@Suite struct CoverTests {
    func upstreamsWithGoogleBook() -> Upstreams {
        var upstreams = Upstreams()
        upstreams.google = { _ in StubHTTPClient.json(Fixtures.googlePragmatic) }
        return upstreams
    }

    @Test func servesTheImageWithItsTypeAndCachesIt() async throws {
        let (service, client, _) = makeService(upstreamsWithGoogleBook())
        guard case let .cover(lookup) = try await service.cover(isbn(Fixtures.pragmatic13)) else {
            Issue.record("expected a cover"); return
        }
        #expect(lookup.value.image == Fixtures.jpeg)
        #expect(lookup.value.contentType == "image/jpeg")
        let request = try #require(client.requests.last)
        #expect(request.url.hasPrefix("https://books.google.com/books/content?id=5wBQEp6ruIAC"))
        #expect(request.maxResponseBytes == 2_097_152)
        #expect(request.allowedHosts?.contains("books.googleusercontent.com") == true)
        #expect(request.provider == "google-books")

        let hit = try #require(service.cachedCover(isbn(Fixtures.pragmatic10)))
        #expect(hit.outcome == .hit)
        #expect(client.count(host: "books.google.com") == 1)
    }

    @Test func sizeCapIsPassedThrough() async throws {
        var configuration = BooksConfiguration()
        configuration.maxCoverBytes = 1234
        let (service, client, _) = makeService(upstreamsWithGoogleBook(), configuration: configuration)
        _ = try await service.cover(isbn(Fixtures.pragmatic13))
        #expect(client.requests.last?.maxResponseBytes == 1234)
    }

    @Test(arguments: ["text/html; charset=utf-8", "image/svg+xml", "application/octet-stream", "image/", nil])
    func nonImageTypeIs502(contentType: String?) async throws {
        var upstreams = upstreamsWithGoogleBook()
        upstreams.covers = { _ in
            UpstreamResponse(status: 200, headers: contentType.map { ["Content-Type": $0] } ?? [:], body: Array("<html>".utf8))
        }
        let (service, _, _) = makeService(upstreams)
        await #expect {
            _ = try await service.cover(isbn(Fixtures.pragmatic13))
        } throws: { error in
            (error as? UpstreamError)?.kind == .malformed
        }
        #expect(service.cachedCover(isbn(Fixtures.pragmatic13)) == nil)
    }

    @Test func aForeignHostIsRefusedWithoutARequest() async throws {
        var upstreams = Upstreams()
        let json = Fixtures.googlePragmatic.replacingOccurrences(of: "http://books.google.com/books/content", with: "http://169.254.169.254/latest/meta-data")
        upstreams.google = { _ in StubHTTPClient.json(json) }
        let (service, client, _) = makeService(upstreams)
        await #expect {
            _ = try await service.cover(isbn(Fixtures.pragmatic13))
        } throws: { error in
            (error as? UpstreamError)?.kind == .invalidURL
        }
        #expect(client.count(host: "169.254.169.254") == 0)
        #expect(client.requests.count == 1)   // the lookup only
    }

    @Test func aRedirectOffTheAllowedHostsIsRefused() async throws {
        var upstreams = upstreamsWithGoogleBook()
        upstreams.covers = { _ in
            UpstreamResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: Fixtures.jpeg,
                             effectiveURL: "https://attacker.example/x.jpg")
        }
        let (service, _, _) = makeService(upstreams)
        await #expect(throws: UpstreamError.self) { _ = try await service.cover(isbn(Fixtures.pragmatic13)) }
    }

    @Test func upstream404IsACachedMissingCover() async throws {
        var upstreams = Upstreams()
        upstreams.openLibrary = { _ in StubHTTPClient.json(Fixtures.openLibraryPragmatic) }
        upstreams.covers = { _ in UpstreamResponse(status: 404) }
        let (service, client, _) = makeService(upstreams)
        guard case let .cover(lookup) = try await service.cover(isbn(Fixtures.pragmatic13)) else {
            Issue.record("expected a cover answer"); return
        }
        #expect(lookup.value.image == nil)
        #expect(lookup.freshnessLeftSeconds == 3600)
        #expect(client.requests.last?.url == "https://covers.openlibrary.org/b/id/8090534-L.jpg?default=false")
        #expect(service.cachedCover(isbn(Fixtures.pragmatic13))?.value.image == nil)
    }

    @Test func noCoverAndUnknownBook() async throws {
        var upstreams = Upstreams()
        upstreams.google = { _ in StubHTTPClient.json(Fixtures.googlePragmaticThin) }
        let (service, client, _) = makeService(upstreams)
        guard case .noCover = try await service.cover(isbn(Fixtures.pragmatic13)) else {
            Issue.record("expected no cover"); return
        }
        guard case .bookNotFound = try await service.cover(isbn("9780306406157")) else {
            Issue.record("expected book not found"); return
        }
        #expect(client.requests.allSatisfy { $0.provider == "google-books" || $0.provider == "open-library" })
        #expect(!client.requests.contains { $0.url.contains("/b/") || $0.url.contains("content?") })
    }
}

/// A cover's Content-Type is vetted byte by byte.
@Suite struct CoverMediaTypeTests {
    @Test func onlyPlainASCIIImageTypesPass() {
        #expect(CoverMediaType.imageType("IMAGE/PNG; charset=x") == "image/png")
        #expect(CoverMediaType.imageType(" image/jpeg ") == "image/jpeg")
        #expect(CoverMediaType.imageType("image/vnd.microsoft.icon") == "image/vnd.microsoft.icon")
        for refused in ["image/", "image/svg+xml", "IMAGE/SVG+XML", "text/html", "image/jpe\u{301}g", "image\u{301}/png",
                        "image/\u{FF50}ng", "image/png\u{200D}", "image/\u{212A}", "image /png", nil] as [String?] {
            #expect(CoverMediaType.imageType(refused) == nil, "\(String(describing: refused))")
        }
    }
}

@Suite struct CoverHostPolicyTests {
    @Test func defaultsAllowProvidersAndTheirImageHosts() {
        let policy = CoverHostPolicy(configuration: BooksConfiguration())
        #expect(policy.hosts == ["www.googleapis.com", "books.google.com", "books.googleusercontent.com",
                                 "openlibrary.org", "covers.openlibrary.org", "archive.org", ".archive.org"])
        #expect(policy.allows("https://books.google.com/books/content?id=1"))
        #expect(policy.allows("https://ia800505.us.archive.org/view_archive.php?archive=x"))
        #expect(!policy.allows("https://evilarchive.org/x"))
        #expect(!policy.allows("https://books.google.com.evil.example/x"))
        #expect(!policy.allows("https://books.google.com@evil.example/x"))
        #expect(!policy.allows("ftp://books.google.com/x"))
        #expect(!policy.allows("//books.google.com/x"))
    }

    @Test func onlyConfiguredProvidersCount() {
        var configuration = BooksConfiguration()
        configuration.providers = [.openLibrary]
        configuration.openLibrary.coversBaseUrl = "https://covers.mirror.example:8443"
        let policy = CoverHostPolicy(configuration: configuration)
        #expect(policy.hosts == ["openlibrary.org", "covers.mirror.example"])
        #expect(!policy.allows("https://books.google.com/x"))
    }
}
