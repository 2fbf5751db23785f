import Testing
@testable import HTTP1

/// Request line (RFC 9112 §3): method, request-target forms, version, leading empty lines.
@Suite struct RequestParserRequestLineTests {
    @Test func originFormKeepsPathAndQuery() throws {
        let (r, _) = try #require(firstRequest("GET /v1/books/978-3-16%2F?a=1&b=%20 HTTP/1.1\nHost: a\n\n"))
        #expect(r.path == "/v1/books/978-3-16%2F")
        #expect(r.rawQuery == "a=1&b=%20")
        #expect(r.query("b") == " ")
    }

    @Test func absoluteFormRoutesByPathAndQuery() throws {
        let (r, _) = try #require(firstRequest("GET http://example.com:8080/v1/rates?base=EUR HTTP/1.1\nHost: other\n\n"))
        #expect(r.target == "http://example.com:8080/v1/rates?base=EUR")
        #expect(r.path == "/v1/rates")
        #expect(r.rawQuery == "base=EUR")
        // RFC 9112 §3.2.2: the authority of the target replaces Host.
        #expect(r.headers.values(for: "Host") == ["example.com:8080"])
    }

    @Test func absoluteFormSchemeIsCaseInsensitiveAndPathMayBeEmpty() throws {
        let (a, _) = try #require(firstRequest("GET HTTPS://example.com HTTP/1.1\nHost: example.com\n\n"))
        #expect(a.path == "/")
        let (b, _) = try #require(firstRequest("GET http://example.com?x=1 HTTP/1.1\nHost: example.com\n\n"))
        #expect(b.path == "/")
        #expect(b.query("x") == "1")
    }

    @Test(arguments: [
        "GET http://user@example.com/ HTTP/1.1",  // userinfo
        "GET http:///path HTTP/1.1",               // no host
        "GET ftp://example.com/ HTTP/1.1",         // other scheme
        "GET http://exa mple.com/ HTTP/1.1",       // space
    ])
    func badAbsoluteForm(line: String) {
        #expect(errorCode(line + "\nHost: a\n\n") == 400)
    }

    @Test func asteriskFormOnlyWithOptions() throws {
        let (r, _) = try #require(firstRequest("OPTIONS * HTTP/1.1\nHost: a\n\n"))
        #expect(r.target == "*")
        #expect(r.path == "*")
        #expect(errorCode("GET * HTTP/1.1\nHost: a\n\n") == 400)
    }

    @Test(arguments: [
        [UInt8]("GET /a\u{01}b HTTP/1.1\r\nHost: a\r\n\r\n".utf8),   // control
        [UInt8]("GET /a\tb HTTP/1.1\r\nHost: a\r\n\r\n".utf8),       // tab
        [UInt8]("GET /a\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n".utf8),    // DEL
        [UInt8]("GET /caf\u{E9} HTTP/1.1\r\nHost: a\r\n\r\n".utf8),  // raw UTF-8
        [UInt8]("GET /a#frag HTTP/1.1\r\nHost: a\r\n\r\n".utf8),     // fragment
        [UInt8]("GET /a b HTTP/1.1\r\nHost: a\r\n\r\n".utf8),        // space
        [UInt8]("GET  / HTTP/1.1\r\nHost: a\r\n\r\n".utf8),          // empty target
        [UInt8]("GET relative HTTP/1.1\r\nHost: a\r\n\r\n".utf8),    // not a known form
        [UInt8]("GET /\0 HTTP/1.1\r\nHost: a\r\n\r\n".utf8),         // NUL
    ])
    func invalidTargetIsBadRequest(bytes: [UInt8]) {
        #expect(errorCode(bytes) == 400)
    }

    @Test func methodIsAnyTokenAndCaseSensitive() throws {
        let (r, _) = try #require(firstRequest("PURGE /x HTTP/1.1\nHost: a\n\n"))
        #expect(r.method == "PURGE")
        let (g, _) = try #require(firstRequest("get /x HTTP/1.1\nHost: a\n\n"))
        #expect(g.method == "get")
    }

    @Test(arguments: ["G(T / HTTP/1.1", " / HTTP/1.1", "GE\u{7F}T / HTTP/1.1", "GET\t/ HTTP/1.1", "GET /", "GET", "GET / HTTP/1.1 extra"])
    func malformedRequestLineIsBadRequest(line: String) {
        #expect(errorCode(line + "\nHost: a\n\n") == 400)
    }

    @Test func connectIsNotImplemented() {
        #expect(errorCode("CONNECT example.com:443 HTTP/1.1\nHost: example.com:443\n\n") == 501)
    }

    @Test func versions() throws {
        let (r10, _) = try #require(firstRequest("GET / HTTP/1.0\n\n"))
        #expect(r10.version == .http1_0)
        let (r11, _) = try #require(firstRequest("GET / HTTP/1.1\nHost: a\n\n"))
        #expect(r11.version == .http1_1)
    }

    @Test(arguments: ["HTTP/2.0", "HTTP/0.9", "HTTP/1.2", "HTTP/3.0", "HTTP/9.9"])
    func wellFormedOtherVersionIs505(version: String) {
        #expect(errorCode("GET / \(version)\nHost: a\n\n") == 505)
    }

    @Test(arguments: ["http/1.1", "HTTP/1", "HTTP/1.1 ", "HTTP/10.0", "HTTP/1.10", "HTTPS/1.1", "HTTP/a.b", "HTTP/1,1", ""])
    func malformedVersionIs400(version: String) {
        #expect(errorCode("GET / \(version)\nHost: a\n\n") == 400)
    }

    @Test func leadingEmptyLinesAreIgnored() throws {
        let (r, _) = try #require(firstRequest("\n\nGET /x HTTP/1.1\nHost: a\n\n"))
        #expect(r.path == "/x")
        // Between pipelined requests too (some clients add CRLF after a body).
        let events = feedWhole("POST /a HTTP/1.1\nHost: a\nContent-Length: 1\n\nx\nGET /b HTTP/1.1\nHost: a\n\n".crlf)
        #expect(events.count == 2)
    }

    @Test func leadingBareLineFeedIsRejected() {
        #expect(errorCode(Array("\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)) == 400)
    }

    @Test func bareLineFeedAfterRequestLineIsRejected() {
        #expect(errorCode(Array("GET / HTTP/1.1\nHost: a\r\n\r\n".utf8)) == 400)
    }

    @Test func bareCarriageReturnIsRejected() {
        #expect(errorCode(Array("GET / HTTP/1.1\rHost: a\r\n\r\n".utf8)) == 400)
    }
}

/// Inputs the fuzzer found, kept as regressions.
@Suite struct RequestParserFuzzRegressionTests {
    /// crash-2dc11ba3: an HTTP/1.0 absolute-form request without Host, its fields exactly at
    /// the field limit. The target's authority becomes the Host field (RFC 9112 §3.2.2), so
    /// the request carries one field more than was sent; that is not a limit breach.
    @Test func absoluteFormHTTP10WithoutHostAtFieldLimit() throws {
        let bytes = Array("GT http://p HTTP/1.0\r\nH: exam\r\nemo:16/TP/1.0\r\nH: exam\r\n\r\n".utf8)
        let limits = RequestParserLimits(maxRequestLineBytes: 24, maxHeaderBytes: 48, maxHeaderFields: 3, maxBodyBytes: 12)
        let (r, keepAlive) = try #require(firstRequest(bytes, limits: limits))
        #expect(r.method == "GT")
        #expect(r.path == "/")
        #expect(r.headers.count == 4)
        #expect(r.headers["Host"] == "p")
        #expect(!keepAlive)
    }
}
