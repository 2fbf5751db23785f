import Testing
@testable import HTTP1

/// Header fields (RFC 9112 §5, RFC 9110 §5) and Host (RFC 9112 §3.2).
@Suite struct RequestParserHeaderTests {
    @Test func valuesAreTrimmedOfOptionalWhitespaceOnly() throws {
        let (r, _) = try #require(firstRequest("GET / HTTP/1.1\nHost: a\nX-A: \t one  two \t\nX-Empty:\nX-Spaces:    \n\n"))
        #expect(r.headers["x-a"] == "one  two")
        #expect(r.headers["X-Empty"] == "")
        #expect(r.headers["X-Spaces"] == "")
    }

    @Test func orderAndDuplicatesAreKept() throws {
        let (r, _) = try #require(firstRequest("GET / HTTP/1.1\nHost: a\nX-B: 1\nx-b: 2\nX-C: 3\n\n"))
        #expect(r.headers.values(for: "X-B") == ["1", "2"])
        #expect(r.headers.fields.map(\.name) == ["Host", "X-B", "x-b", "X-C"])
    }

    /// Authorization is a singleton (RFC 9110 §11.6.2): two of them, in any case or order,
    /// are a 400 naming the field, so no component can pick a different one than another.
    @Test func authorizationMoreThanOnceIs400() throws {
        #expect(errorCode("GET / HTTP/1.1\nHost: a\nAuthorization: Bearer x\nAuthorization: Bearer y\n\n") == 400)
        #expect(errorCode("GET / HTTP/1.1\nHost: a\nauthorization: Bearer x\nX-A: 1\nAUTHORIZATION: Bearer x\n\n") == 400)
        let e = try #require(parseError("GET / HTTP/1.1\nHost: a\nAuthorization: a\nAuthorization: a\n\n"))
        #expect(e.detail.contains("Authorization"))
        let (once, _) = try #require(firstRequest("GET / HTTP/1.1\nHost: a\nAuthorization: Bearer x\n\n"))
        #expect(once.headers["Authorization"] == "Bearer x")
        // The count starts again with each request on a connection.
        var parser = RequestParser()
        parser.append(Array("GET / HTTP/1.1\r\nHost: a\r\nAuthorization: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nAuthorization: b\r\n\r\n".utf8))
        guard case .request = parser.next(), case let .request(second, _) = parser.next() else {
            Issue.record("two pipelined requests with one Authorization each were not both accepted"); return
        }
        #expect(second.headers["Authorization"] == "b")
    }

    @Test func obsTextIsAcceptedAndDecodedAsUTF8() throws {
        let (r, _) = try #require(firstRequest(Array("GET / HTTP/1.1\r\nHost: a\r\nX-Name: caf\u{E9}\r\n\r\n".utf8)))
        #expect(r.headers["X-Name"] == "caf\u{E9}")
    }

    @Test(arguments: [
        "X-A : 1",        // whitespace before colon
        "X-A\t: 1",       // tab before colon
        " X-A: 1",        // obs-fold / leading whitespace
        "\tX-A: 1",
        "X-A 1",          // no colon
        "X-A",            // no colon
        ": 1",            // empty name
        "X(A): 1",        // name not a token
        "X-A: a\u{0}b",   // NUL
        "X-A: a\u{7F}b",  // DEL
        "X-A: a\u{1B}b",  // ESC
        "X-A: a\rb",      // bare CR inside a value
    ])
    func malformedFieldLineIsBadRequest(line: String) {
        #expect(errorCode("GET / HTTP/1.1\nHost: a\n\(line)\n\n") == 400)
    }

    @Test func obsFoldContinuationIsRejected() {
        #expect(errorCode("GET / HTTP/1.1\nHost: a\nX-A: 1\n  continued\n\n") == 400)
    }

    @Test func bareLineFeedInFieldsIsRejected() {
        #expect(errorCode(Array("GET / HTTP/1.1\r\nHost: a\nX: 1\r\n\r\n".utf8)) == 400)
        #expect(errorCode(Array("GET / HTTP/1.1\r\nHost: a\r\n\n".utf8)) == 400)
    }

    @Test func hostIsRequiredOnHTTP11Only() throws {
        #expect(errorCode("GET / HTTP/1.1\nAccept: */*\n\n") == 400)
        #expect(try #require(firstRequest("GET / HTTP/1.0\n\n")).0.path == "/")
    }

    @Test func duplicateHostIsRejected() {
        #expect(errorCode("GET / HTTP/1.1\nHost: a\nHost: a\n\n") == 400)
        #expect(errorCode("GET / HTTP/1.0\nHost: a\nhost: b\n\n") == 400)
    }

    @Test(arguments: ["example.com", "example.com:8080", "127.0.0.1:1", "[::1]", "[::1]:443", "a.b-c_d~e", "xn--caf-dma.example", "example.com:", "%41.example", ""])
    func validHost(value: String) {
        #expect(firstRequest("GET / HTTP/1.1\nHost: \(value)\n\n") != nil)
    }

    @Test(arguments: ["a b", "example.com:abc", "example.com:80:80", "user@example.com", "example.com/path", "[::1", "[]", "example.com:99999", "example.com:123456", ":80", "%4", "exa\"mple", "a,b"])
    func invalidHost(value: String) {
        #expect(errorCode("GET / HTTP/1.1\nHost: \(value)\n\n") == 400)
    }

    @Test func tcharMaskMatchesTheRFCList() {
        let tchars = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for b in 0...255 {
            #expect(ParseByte.isTchar(UInt8(b)) == tchars.contains(UInt8(b)), "byte \(b)")
        }
    }
}
