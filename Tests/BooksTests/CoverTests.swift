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
        guard case let .within(policy) = request.redirects else { Issue.record("covers follow redirects within the policy"); return }
        #expect(policy.allows("https://books.googleusercontent.com/books/content?id=1"))
        #expect(!policy.allows("https://books.googleusercontent.com:8443/books/content?id=1"))
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

    /// The label is ignored both ways: HTML labelled as an image is refused, and so is
    /// anything without an image signature, whatever it says it is.
    @Test(arguments: ["text/html; charset=utf-8", "image/svg+xml", "application/octet-stream", "image/", "image/png", "image/jpeg", nil])
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
    @Test func theFirstBytesDecideTheType() {
        #expect(CoverMediaType.sniffed([0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
        #expect(CoverMediaType.sniffed([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == "image/png")
        #expect(CoverMediaType.sniffed(Array("GIF89a...".utf8)) == "image/gif")
        #expect(CoverMediaType.sniffed(Array("GIF87a".utf8)) == "image/gif")
        #expect(CoverMediaType.sniffed(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "image/webp")
        for refused in ["<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>", "<html>", "RIFF0000WAVE",
                        "RIFF", "GIF88a", "\u{89}PNG", "", " \u{FF}"] {
            #expect(CoverMediaType.sniffed(Array(refused.utf8)) == nil, "\(refused)")
        }
        #expect(CoverMediaType.sniffed([0xFF, 0xD8]) == nil)
        #expect(CoverMediaType.sniffed([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A]) == nil)
    }

    @Test func theNoCoverDetailSaysWhatIsMissing() {
        let isbn13 = Fixtures.pragmatic13
        #expect(BooksProblem.coverNotFound(isbn(isbn13), providerAnswered: false).detail
                    == "No configured provider has a cover image for ISBN \(isbn13).")
        #expect(BooksProblem.coverNotFound(isbn(isbn13), providerAnswered: true).detail
                    == "The provider has no cover image for ISBN \(isbn13).")
    }

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
    private func entry(_ host: String, _ port: Int = 443, scheme: String = "https", subdomains: Bool = false) -> HostPolicy.Entry {
        HostPolicy.Entry(scheme: scheme, host: host, port: port, includesSubdomains: subdomains)
    }

    @Test func defaultsAllowProvidersAndTheirImageHostsOnHTTPS443() {
        let policy = CoverHostPolicy(configuration: BooksConfiguration())
        #expect(policy.policy.entries == [entry("www.googleapis.com"), entry("books.google.com"), entry("books.googleusercontent.com"),
                                          entry("openlibrary.org"), entry("covers.openlibrary.org"),
                                          entry("archive.org", subdomains: true)])
        #expect(policy.allows("https://books.google.com/books/content?id=1"))
        #expect(policy.allows("https://books.google.com:443/books/content?id=1"))
        #expect(policy.allows("https://ia800505.us.archive.org/view_archive.php?archive=x"))
        #expect(!policy.allows("http://books.google.com/books/content?id=1"))
        #expect(!policy.allows("https://books.google.com:8443/books/content?id=1"))
        #expect(!policy.allows("https://evilarchive.org/x"))
        #expect(!policy.allows("https://books.google.com.evil.example/x"))
    }

    /// Every trick, one by one, against the default allow-list.
    @Test(arguments: [
        "https://books.google.com@evil.example/x",        // userinfo naming an allowed host
        "https://user:pass@books.google.com/x",            // userinfo on an allowed host
        "https://books.google.com./x",                     // trailing dot
        "ftp://books.google.com/x",                        // another scheme
        "file:///etc/passwd",
        "//books.google.com/x",                            // scheme-relative
        "https://2130706433/x",                            // decimal IP
        "https://0x7f000001/x",                            // hex IP
        "https://0177.0.0.1/x",                            // octal IP
        "https://169.254.169.254/latest/meta-data",        // cloud metadata (not on the list)
        "https://[::1]/x",                                 // IPv6 literal
        "https://books.google.com\\@evil.example/x",       // backslash
        "https://%62ooks.google.com/x",                    // percent-encoded host
        "https://books.google.com:/x",                     // empty port
    ])
    func tricksAreRefused(url: String) {
        #expect(!CoverHostPolicy(configuration: BooksConfiguration()).allows(url))
    }

    @Test func onlyConfiguredProvidersCount() {
        var configuration = BooksConfiguration()
        configuration.providers = ["open-library"]
        configuration.openLibrary.coversBaseURL = "https://covers.mirror.example:8443"
        let policy = CoverHostPolicy(configuration: configuration)
        // A mirror of the covers: no Internet Archive, and the mirror's own port only.
        #expect(policy.policy.entries == [entry("openlibrary.org"), entry("covers.mirror.example", 8443)])
        #expect(policy.allows("https://covers.mirror.example:8443/b/id/1-L.jpg"))
        #expect(!policy.allows("https://covers.mirror.example/b/id/1-L.jpg"))
        #expect(!policy.allows("https://books.google.com/x"))
        #expect(!policy.allows("https://ia800505.us.archive.org/x"))
    }

    @Test func aPlainHTTPMirrorIsItsOwnOrigin() {
        var configuration = BooksConfiguration()
        configuration.providers = ["google-books"]
        configuration.endpoints["google-books"].baseURL = "http://127.0.0.1:9000"
        let policy = CoverHostPolicy(configuration: configuration)
        #expect(policy.allows("http://127.0.0.1:9000/books/content?id=1"))
        #expect(!policy.allows("http://127.0.0.1:9001/books/content?id=1"))
        #expect(!policy.allows("https://127.0.0.1:9000/books/content?id=1"))
        #expect(!policy.allows("http://127.0.0.2:9000/books/content?id=1"))
    }
}

@Suite struct CoverFailureLabelTests {
    /// Google named the thumbnail; its failure is Google's, whatever host serves it.
    @Test func aGoogleThumbnailFailureIsLabelledGoogleBooks() async throws {
        var configuration = BooksConfiguration()
        configuration.endpoints["google-books"].baseURL = "http://127.0.0.1:9000"
        configuration.endpoints["open-library"].baseURL = "http://127.0.0.1:9000"
        configuration.openLibrary.coversBaseURL = "http://127.0.0.1:9000"
        let json = Fixtures.googlePragmatic.replacingOccurrences(of: "http://books.google.com/books/content", with: "http://127.0.0.1:9000/books/content")
        let client = StubHTTPClient { request in
            if request.url.contains("/books/v1/volumes") { return StubHTTPClient.json(json) }
            if request.url.contains("/api/books") { return StubHTTPClient.json(Fixtures.openLibraryNotFound) }
            return UpstreamResponse(status: 503)
        }
        let service = BooksService(configuration: configuration, client: client, cache: CacheStore(limits: CacheLimits()), problemEncoder: testProblemEncoder)
        await #expect {
            _ = try await service.cover(isbn(Fixtures.pragmatic13))
        } throws: { error in
            (error as? UpstreamError)?.provider == "google-books"
        }
    }
}
