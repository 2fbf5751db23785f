import Books
import HTTPClientTestSupport
import HTTP1
import Testing
@testable import Almanac

/// Google-compatible `imageLinks`: almanac's own absolute cover URL, from `server.publicBaseUrl`
/// or the request, with forwarded headers only when trusted, and every host validated.
@Suite struct VolumesImageLinksTests {
    private let target = "/books/v1/volumes?q=isbn:9780201616224"
    private let path = "/v1/books/9780201616224/cover"

    private func thumbnail(_ response: HTTPResponse) throws -> String? {
        let info = try #require((try json(response)["items"] as? [[String: Any]])?.first?["volumeInfo"] as? [String: Any])
        return (info["imageLinks"] as? [String: String])?["thumbnail"]
    }

    private func headers(_ pairs: [(String, String)]) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in pairs { headers.add(name, value) }
        return headers
    }

    @Test func publicBaseUrlWinsOverEverything() async throws {
        let harness = BooksHarness.foundOnGoogle(links: PublicLinks(baseURL: "https://books.example.com/almanac/", trustForwardedHeaders: true))
        let response = await harness.get(target, headers: headers([("Host", "ignored.example"), ("X-Forwarded-Host", "evil.example")]))
        #expect(try thumbnail(response) == "https://books.example.com/almanac" + path)
        #expect(response.headers["Vary"] == nil)
    }

    @Test func forwardedHeadersAreIgnoredUnlessTrusted() async throws {
        let harness = BooksHarness.foundOnGoogle()
        let response = await harness.get(target, headers: headers([
            ("Host", "Almanac.Internal:8080"), ("X-Forwarded-Host", "evil.example"), ("X-Forwarded-Proto", "https"),
            ("Forwarded", "proto=https;host=evil.example"),
        ]))
        #expect(try thumbnail(response) == "http://almanac.internal:8080" + path)
    }

    @Test func trustedForwardedHeadersShapeTheBase() async throws {
        let harness = BooksHarness.foundOnGoogle(links: PublicLinks(trustForwardedHeaders: true))
        let xForwarded = await harness.get(target, headers: headers([
            ("Host", "10.0.0.5:8080"), ("X-Forwarded-Proto", "http, https"), ("X-Forwarded-Host", "spoofed.example, books.example.com"),
        ]))
        #expect(try thumbnail(xForwarded) == "https://books.example.com" + path)
        #expect(xForwarded.headers["Vary"] == "Forwarded, X-Forwarded-Proto, X-Forwarded-Host")
        // RFC 7239 wins over X-Forwarded-*; its last element is the trusted proxy's.
        let forwarded = await harness.get(target, headers: headers([
            ("Host", "10.0.0.5:8080"), ("X-Forwarded-Host", "books.example.com"),
            ("Forwarded", #"for=192.0.2.1;host=spoofed.example, for=198.51.100.7;proto=https;host="[2001:db8::1]:8443""#),
        ]))
        #expect(try thumbnail(forwarded) == "https://[2001:db8::1]:8443" + path)
        // A different base is a different representation.
        #expect(forwarded.headers["ETag"] != xForwarded.headers["ETag"])
        // A forwarded host that is not a host falls back to Host; an odd proto to http.
        let odd = await harness.get(target, headers: headers([
            ("Host", "10.0.0.5:8080"), ("X-Forwarded-Proto", "javascript"), ("X-Forwarded-Host", "evil.example/\"><script>"),
        ]))
        #expect(try thumbnail(odd) == "http://10.0.0.5:8080" + path)
    }

    @Test(arguments: ["evil.example/x", "a b", "a\"b", "user@evil.example", "évil.example", "evil.example:", "evil.example:123456",
                      "[::1", ".evil", "evil.example:80:80", "evil\u{0301}.example", ""])
    func anInvalidHostIsA400(host: String) async throws {
        let harness = BooksHarness.foundOnGoogle()
        let response = await harness.get(target, headers: headers([("Host", host)]))
        #expect(response.status == .badRequest)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("evil"))
    }

    /// No cover, no `imageLinks`; the volume's `selfLink` still needs a valid host.
    @Test func noCoverNoImageLinks() async throws {
        let harness = BooksHarness(openLibrary: { _ in
            StubHTTPClient.json(#"{"ISBN:9780201616224":{"title":"The pragmatic programmer"}}"#)
        })
        let response = await harness.get(target, headers: headers([("Host", "almanac.internal")]))
        #expect(response.status == .ok)
        #expect(try thumbnail(response) == nil)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("imageLinks"))
        let bad = await harness.get(target, headers: headers([("Host", "bad host")]))
        #expect(bad.status == .badRequest)
    }

    @Test func hostValidationIsByteExact() {
        #expect(PublicLinks.validHost("Books.Example.COM") == "books.example.com")
        #expect(PublicLinks.validHost("127.0.0.1:8080") == "127.0.0.1:8080")
        #expect(PublicLinks.validHost("[2001:DB8::1]:443") == "[2001:db8::1]:443")
        #expect(PublicLinks.validHost("books.example.com\r\nX: y") == nil)
        #expect(PublicLinks.validHost("books.example.com%2F") == nil)
        #expect(PublicLinks.validHost("-books.example.com") == nil)
    }
}
