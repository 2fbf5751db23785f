import Testing
@testable import HTTP1

/// Connection handling: keep-alive (RFC 9112 §9.3), Expect (RFC 9110 §10.1.1), pipelining,
/// the terminal error, phases and the internal buffer.
@Suite struct RequestParserConnectionTests {
    private func keepAlive(_ version: String, _ connection: String?) -> Bool? {
        let field = connection.map { "Connection: \($0)\n" } ?? ""
        return firstRequest("GET / \(version)\nHost: a\n\(field)\n")?.1
    }

    @Test func keepAliveRules() {
        #expect(keepAlive("HTTP/1.1", nil) == true)
        #expect(keepAlive("HTTP/1.1", "close") == false)
        #expect(keepAlive("HTTP/1.1", "Close") == false)
        #expect(keepAlive("HTTP/1.1", "keep-alive, Upgrade") == true)
        #expect(keepAlive("HTTP/1.1", "upgrade , CLOSE") == false)
        #expect(keepAlive("HTTP/1.1", "closed") == true)
        #expect(keepAlive("HTTP/1.0", nil) == false)
        #expect(keepAlive("HTTP/1.0", "keep-alive") == true)
        #expect(keepAlive("HTTP/1.0", "Keep-Alive") == true)
        #expect(keepAlive("HTTP/1.0", "keep-alive, close") == false)
    }

    @Test func connectionFieldsCombine() {
        #expect(firstRequest("GET / HTTP/1.1\nHost: a\nConnection: upgrade\nConnection: close\n\n")?.1 == false)
    }

    // MARK: Expect

    @Test func expectContinueIsReportedOnceWhileTheBodyIsPending() {
        var parser = RequestParser()
        parser.append("POST / HTTP/1.1\nHost: a\nExpect: 100-continue\nContent-Length: 4\n\n".crlf)
        guard case .expectContinue = parser.next() else { Issue.record("expected expectContinue"); return }
        #expect(parser.phase == .body)
        guard case .needMore = parser.next() else { Issue.record("reported once"); return }
        parser.append(Array("ab".utf8))
        guard case .needMore = parser.next() else { Issue.record("reported once"); return }
        parser.append(Array("cd".utf8))
        guard case .request(let r, _) = parser.next() else { Issue.record("expected request"); return }
        #expect(r.body == Array("abcd".utf8))
    }

    @Test func expectContinueIsCaseInsensitive() {
        let events = feedWhole("POST / HTTP/1.1\nHost: a\nExpect: 100-Continue\nContent-Length: 1\n\n".crlf)
        #expect(events == [.expectContinue])
    }

    @Test func expectContinueWithChunkedBody() {
        let head = "POST / HTTP/1.1\nHost: a\nExpect: 100-continue\nTransfer-Encoding: chunked\n\n".crlf
        let events = feed([head, "1\nx\n".crlf, "0\n\n".crlf])
        #expect(events.count == 2)
        #expect(events.first == .expectContinue)
    }

    @Test func noExpectContinueWithoutPendingBody() {
        // Zero-length body: nothing to wait for.
        #expect(feedWhole("POST / HTTP/1.1\nHost: a\nExpect: 100-continue\nContent-Length: 0\n\n".crlf).allSatisfy { $0.isRequestOrError })
        #expect(feedWhole("GET / HTTP/1.1\nHost: a\nExpect: 100-continue\n\n".crlf).allSatisfy { $0.isRequestOrError })
        // Body already here: the request itself is the answer.
        #expect(feedWhole("POST / HTTP/1.1\nHost: a\nExpect: 100-continue\nContent-Length: 2\n\nhi".crlf).allSatisfy { $0.isRequestOrError })
        // HTTP/1.0 clients do not understand 100 Continue (RFC 9110 §10.1.1).
        #expect(feedWhole("POST / HTTP/1.0\nExpect: 100-continue\nContent-Length: 2\n\n".crlf).isEmpty)
    }

    @Test func expectContinueThenBodyError() {
        let limits = RequestParserLimits(maxBodyBytes: 4)
        let head = "POST / HTTP/1.1\nHost: a\nExpect: 100-continue\nTransfer-Encoding: chunked\n\n".crlf
        #expect(feed([head, "5\n".crlf], limits: limits) == [.expectContinue, .error(413)])
        // A declared length over the limit is refused instead of inviting the body.
        #expect(feedWhole("POST / HTTP/1.1\nHost: a\nExpect: 100-continue\nContent-Length: 5\n\n".crlf, limits: limits) == [.error(413)])
    }

    @Test(arguments: ["something", "100-continue, foo", "200-ok", "100-continue;x=1"])
    func otherExpectationIs417(value: String) {
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nExpect: \(value)\nContent-Length: 1\n\nx") == 417)
    }

    @Test func emptyExpectIsIgnored() {
        #expect(firstRequest("GET / HTTP/1.1\nHost: a\nExpect:\n\n") != nil)
    }

    // MARK: Pipelining

    @Test func pipelinedRequestsComeOutInOrder() {
        let text = "GET /1 HTTP/1.1\nHost: a\n\n"
            + "POST /2 HTTP/1.1\nHost: a\nContent-Length: 3\n\nabc"
            + "POST /3 HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n2\nde\n0\n\n"
            + "GET /4 HTTP/1.0\n\n"
        var parser = RequestParser()
        parser.append(text.crlf)
        var paths: [String] = []
        var keepAlives: [Bool] = []
        while case .request(let r, let k) = parser.next() {
            paths.append(r.path)
            keepAlives.append(k)
            if paths.count < 4 { #expect(parser.phase == .head) }
        }
        #expect(paths == ["/1", "/2", "/3", "/4"])
        #expect(keepAlives == [true, true, true, false])
        #expect(parser.phase == .idle)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func partialPipelinedRequestWaits() {
        var parser = RequestParser()
        parser.append("GET /1 HTTP/1.1\nHost: a\n\nGET /2 HTTP/1.1\nHo".crlf)
        guard case .request = parser.next() else { Issue.record("expected request"); return }
        #expect(parser.phase == .head)
        #expect(parser.bufferedByteCount == 19)
        guard case .needMore = parser.next() else { Issue.record("expected needMore"); return }
        parser.append("st: a\n\n".crlf)
        guard case .request(let r, _) = parser.next() else { Issue.record("expected request"); return }
        #expect(r.path == "/2")
    }

    @Test func errorAfterGoodRequestsIsTerminal() {
        var parser = RequestParser()
        parser.append("GET /1 HTTP/1.1\nHost: a\n\nGET /2 HTTP/9.9\nHost: a\n\nGET /3 HTTP/1.1\nHost: a\n\n".crlf)
        guard case .request = parser.next() else { Issue.record("expected request"); return }
        guard case .error(let first) = parser.next() else { Issue.record("expected error"); return }
        #expect(first.status == .httpVersionNotSupported)
        for _ in 0..<3 {
            guard case .error(let again) = parser.next() else { Issue.record("error must be sticky"); return }
            #expect(again == first)
        }
        parser.append("GET / HTTP/1.1\nHost: a\n\n".crlf)
        guard case .error(let after) = parser.next() else { Issue.record("error must be sticky"); return }
        #expect(after == first)
    }

    @Test func phaseAfterErrorIsWhereItHappened() {
        var head = RequestParser()
        head.append("GET / HTTP/1.1\nHost: a\nBad Name: 1\n".crlf)
        _ = head.next()
        #expect(head.phase == .head)
        var body = RequestParser()
        body.append("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\nzz\n".crlf)
        _ = body.next()
        #expect(body.phase == .body)
    }

    @Test func errorDetailIsActionable() throws {
        let e = try #require(parseError("GET / HTTP/1.1\nAccept: */*\n\n"))
        #expect(e.status == .badRequest)
        #expect(e.detail.contains("Host"))
    }

    // MARK: Phase and buffer

    @Test func phasesFollowTheRequest() {
        var parser = RequestParser()
        #expect(parser.phase == .idle)
        parser.append(Array("\r\n".utf8))
        _ = parser.next()
        #expect(parser.phase == .idle)  // empty lines before a request are not part of it
        parser.append(Array("P".utf8))
        #expect(parser.phase == .head)
        parser.append("OST / HTTP/1.1\nHost: a\nContent-Length: 2\n\nx".crlf)
        _ = parser.next()
        #expect(parser.phase == .body)
        parser.append(Array("y".utf8))
        guard case .request = parser.next() else { Issue.record("expected request"); return }
        #expect(parser.phase == .idle)
    }

    @Test func bufferStaysSmallAcrossManyPipelinedRequests() {
        let one = "POST /x HTTP/1.1\nHost: a\nContent-Length: 10\n\n0123456789".crlf
        let stream = Array([[UInt8]](repeating: one, count: 2000).joined())
        var parser = RequestParser()
        var seen = 0
        var offset = 0
        var size = 1
        while offset < stream.count {
            // Pieces of 1…97 bytes that straddle request boundaries.
            let end = Swift.min(stream.count, offset + size)
            parser.append(Array(stream[offset..<end]))
            offset = end
            size = size % 97 + 1
            while case .request = parser.next() { seen += 1 }
            #expect(parser.buffer.count <= 2 * one.count + 97)
        }
        #expect(seen == 2000)
    }

    @Test func byteByByteLargeHeadAndBodyIsLinear() {
        // 16 KiB of fields and 64 KiB of body, one byte per append: quadratic rescans would
        // take minutes in a debug build; linear work takes well under a second.
        var text = "POST / HTTP/1.1\nHost: a\nContent-Length: 65536\n"
        while text.utf8.count < 16000 { text += "X-Filler: 0123456789012345678901234567890123456789\n" }
        let bytes = (text + "\n").crlf + Array(repeating: UInt8(ascii: "b"), count: 65536)
        let clock = ContinuousClock()
        var parser = RequestParser(limits: RequestParserLimits(maxHeaderBytes: 32768, maxHeaderFields: 1000))
        var requests = 0
        let elapsed = clock.measure {
            for b in bytes {
                parser.append([b])
                switch parser.next() {
                case .request: requests += 1
                case .error(let e): Issue.record("\(e)")
                default: break
                }
            }
        }
        #expect(requests == 1)
        #expect(elapsed < .seconds(5))
    }
}
