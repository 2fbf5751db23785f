import Testing
@testable import HTTPClient

/// The providers' URL helpers read URLs as curl does, or as bytes (these URLs come from upstream
/// answers and configuration: a combining mark or a stray `@` must not change what is read).
@Suite struct UpstreamURLHelperTests {
    @Test func hostIsWhatCurlWouldConnectTo() {
        #expect(UpstreamURL.host(of: "https://Books.Google.com:443/x") == "books.google.com")
        #expect(UpstreamURL.host(of: "http://127.0.0.1:8080/a?b") == "127.0.0.1")
        #expect(UpstreamURL.host(of: "https://[::1]:8443/") == "::1")
        #expect(UpstreamURL.host(of: "https://a.com@b.com/") == nil, "userinfo is refused")
        #expect(UpstreamURL.host(of: "ftp://a.com/") == nil)
        #expect(UpstreamURL.host(of: "//a.com/x") == nil)
        #expect(UpstreamURL.host(of: "not a url") == nil)
    }

    @Test func writtenHostIsReadAsBytes() {
        #expect(UpstreamURL.writtenHost(of: "http://Books.Google.com:80/x y") == "books.google.com")
        #expect(UpstreamURL.writtenHost(of: "https://a@b.example/") == "b.example")
        #expect(UpstreamURL.writtenHost(of: "https://[::1]:8443/") == "[::1]")
        #expect(UpstreamURL.writtenHost(of: "https://h\u{301}st/") == "h\u{301}st")
        #expect(UpstreamURL.writtenHost(of: "https:///x") == nil)
        #expect(UpstreamURL.writtenHost(of: "ftp://a/") == nil)
    }

    @Test func pathAndQueryAreReadAsBytes() {
        #expect(UpstreamURL.pathAndQuery(of: "https://covers.openlibrary.org/b/id/1-L.jpg?x=1") == "/b/id/1-L.jpg?x=1")
        #expect(UpstreamURL.pathAndQuery(of: "HTTP://h") == "")
        #expect(UpstreamURL.pathAndQuery(of: "https://h?q") == "?q")
        #expect(UpstreamURL.pathAndQuery(of: "https://h/\u{301}b") == "/\u{301}b", "a combining mark after / stays after it")
        #expect(UpstreamURL.pathAndQuery(of: "file:///etc/passwd") == nil)
    }

    @Test func upgradeAndQueryValues() {
        #expect(UpstreamURL.upgradedToHTTPS("http://books.google.com/x") == "https://books.google.com/x")
        #expect(UpstreamURL.upgradedToHTTPS("HTTP://books.google.com/x") == "https://books.google.com/x")
        #expect(UpstreamURL.upgradedToHTTPS("https://a/") == "https://a/")
        #expect(UpstreamURL.appendingQuery("https://g/v?q=isbn:1", "key", "a&b=c é") == "https://g/v?q=isbn:1&key=a%26b%3Dc%20%C3%A9")
        #expect(UpstreamURL.appendingQuery("https://g/v", "country", "US") == "https://g/v?country=US")
    }
}
