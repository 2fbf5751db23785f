import Testing
@testable import HTTP1

@Suite struct RequestParserBasicTests {
    @Test func simpleGet() throws {
        let (request, keepAlive) = try #require(firstRequest("GET /v1/rates?base=EUR&x=a+b HTTP/1.1\nHost: example.com\nAccept:  */* \n\n"))
        #expect(request.method == "GET")
        #expect(request.target == "/v1/rates?base=EUR&x=a+b")
        #expect(request.path == "/v1/rates")
        #expect(request.rawQuery == "base=EUR&x=a+b")
        #expect(request.query("x") == "a b")
        #expect(request.version == .http1_1)
        #expect(request.headers["host"] == "example.com")
        #expect(request.headers["Accept"] == "*/*")
        #expect(request.headers.count == 2)
        #expect(request.body.isEmpty)
        #expect(request.requestID.isEmpty)
        #expect(keepAlive)
    }

    @Test func headRequest() throws {
        let (request, _) = try #require(firstRequest("HEAD / HTTP/1.1\nHost: a\n\n"))
        #expect(request.method == "HEAD")
        #expect(request.path == "/")
    }

    @Test func postWithContentLength() throws {
        let (request, keepAlive) = try #require(firstRequest("POST /echo HTTP/1.1\nHost: a\nContent-Length: 5\n\nhello"))
        #expect(request.body == Array("hello".utf8))
        #expect(keepAlive)
    }

    @Test func needMoreUntilComplete() {
        var parser = RequestParser()
        #expect(parser.phase == .idle)
        parser.append(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8))
        guard case .needMore = parser.next() else { Issue.record("expected needMore"); return }
        #expect(parser.phase == .head)
        parser.append(Array("\r\n".utf8))
        guard case .request = parser.next() else { Issue.record("expected request"); return }
        #expect(parser.phase == .idle)
        #expect(parser.bufferedByteCount == 0)
        guard case .needMore = parser.next() else { Issue.record("expected needMore"); return }
    }

    @Test func rawBufferAppend() throws {
        var parser = RequestParser()
        let bytes = Array("GET /x HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        bytes.withUnsafeBytes { parser.append($0) }
        guard case .request(let request, _) = parser.next() else { Issue.record("expected request"); return }
        #expect(request.path == "/x")
    }
}
