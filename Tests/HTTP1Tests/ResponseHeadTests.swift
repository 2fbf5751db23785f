import Testing
@testable import HTTP1

@Suite struct ResponseHeadTests {
    func render(_ response: HTTPResponse, version: HTTPVersion = .http1_1, head: Bool = false, close: Bool = false) -> String {
        var out: [UInt8] = []
        ResponseHead.write(response, version: version, isHead: head, close: close, requestID: "rid",
                           date: Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8), serverName: "almanac", into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func serverOwnsTheFramingFields() {
        var response = HTTPResponse(body: Array("hello".utf8))
        response.headers.add("Content-Length", "999")
        response.headers.add("connection", "keep-alive")
        response.headers.add("Transfer-Encoding", "chunked")
        response.headers.add("ETag", "\"x\"")
        #expect(render(response, close: true) == """
            HTTP/1.1 200 OK\r
            Date: Sun, 06 Nov 1994 08:49:37 GMT\r
            Server: almanac\r
            Content-Length: 5\r
            Connection: close\r
            X-Request-ID: rid\r
            ETag: "x"\r
            \r

            """)
    }

    /// `capacity` is an upper bound of what `write` produces whatever the fields (dropped
    /// server-owned ones, empty values, long values, odd statuses); `write` traps otherwise.
    @Test func capacityBoundsEveryHead() {
        var rng = SystemRandomNumberGenerator()
        let names = ["ETag", "Content-Length", "connection", "Date", "X-Request-ID", "Cache-Status", "X", "Keep-Alive"]
        for _ in 0..<500 {
            var response = HTTPResponse(status: HTTPStatus(code: Int.random(in: 100...599, using: &rng), reasonPhrase: "Reason"),
                                        body: Array(repeating: 1, count: Int.random(in: 0...3000, using: &rng)))
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                response.headers.add(names.randomElement(using: &rng)!,
                                     String(repeating: "v", count: Int.random(in: 0...300, using: &rng)))
            }
            let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)
            let bound = ResponseHead.capacity(response, requestID: "rid", date: date, serverName: "almanac")
            var out: [UInt8] = []
            ResponseHead.write(response, version: Bool.random(using: &rng) ? .http1_0 : .http1_1,
                               isHead: Bool.random(using: &rng), close: Bool.random(using: &rng), requestID: "rid",
                               date: date, serverName: "almanac", into: &out)
            #expect(out.count <= bound)
            #expect(out.suffix(4) == Array("\r\n\r\n".utf8))
        }
    }

    @Test func http10KeepAliveSaysSo() {
        let text = render(HTTPResponse(), version: .http1_0)
        #expect(text.hasPrefix("HTTP/1.0 200 OK\r\n"))
        #expect(text.contains("Connection: keep-alive\r\n"))
        #expect(text.contains("Content-Length: 0\r\n"))
    }

    @Test func framingRules() {
        #expect(ResponseHead.framing(status: 200, isHead: false, bodyCount: 7, handlerContentLength: nil)
            == .init(contentLength: 7, sendsBody: true))
        #expect(ResponseHead.framing(status: 200, isHead: true, bodyCount: 7, handlerContentLength: nil)
            == .init(contentLength: 7, sendsBody: false))
        #expect(ResponseHead.framing(status: 204, isHead: false, bodyCount: 0, handlerContentLength: "0")
            == .init(contentLength: nil, sendsBody: false))
        #expect(ResponseHead.framing(status: 304, isHead: false, bodyCount: 0, handlerContentLength: nil)
            == .init(contentLength: nil, sendsBody: false))
        #expect(ResponseHead.framing(status: 304, isHead: false, bodyCount: 0, handlerContentLength: "700")
            == .init(contentLength: 700, sendsBody: false))
    }

    @Test func requestIDs() {
        #expect(RequestID.isAcceptable("abc-123"))
        #expect(!RequestID.isAcceptable(""))
        #expect(!RequestID.isAcceptable("a b"))
        #expect(!RequestID.isAcceptable("é"))
        #expect(RequestID.isAcceptable(String(repeating: "a", count: 128)))
        #expect(!RequestID.isAcceptable(String(repeating: "a", count: 129)))
        let source = RequestIDSource()
        let a = source.next().description, b = source.next().description
        #expect(a != b)
        #expect(a.count == 17)
        #expect(a.utf8.allSatisfy { $0 == UInt8(ascii: "-") || ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
    }
}
