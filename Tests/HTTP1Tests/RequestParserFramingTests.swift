import Testing
@testable import HTTP1

/// Message framing (RFC 9112 §6): Content-Length, Transfer-Encoding and the chunked coding (§7).
@Suite struct RequestParserFramingTests {
    // MARK: Content-Length

    @Test(arguments: ["0", "00", " 3 ", "3, 3", "3,3", "003"])
    func acceptedContentLength(value: String) throws {
        let text = "POST / HTTP/1.1\nHost: a\nContent-Length: \(value)\n\n"
        let expected = Int(value.split(separator: ",")[0].trimmingSpaces)!
        let body = Array(repeating: UInt8(ascii: "z"), count: expected)
        let (r, _) = try #require(firstRequest(text.crlf + body))
        #expect(r.body == body)
    }

    @Test func identicalContentLengthFieldsAreAccepted() throws {
        let (r, _) = try #require(firstRequest("POST / HTTP/1.1\nHost: a\nContent-Length: 2\nContent-Length: 2\n\nok"))
        #expect(r.body == Array("ok".utf8))
    }

    @Test(arguments: ["abc", "-1", "+1", "", "1.0", "0x10", "1 2", "3,", ",3", "3, 4", "99999999999999999999999", "9223372036854775808", "１"])
    func malformedOrConflictingContentLengthIs400(value: String) {
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nContent-Length: \(value)\n\n") == 400)
    }

    @Test func differingContentLengthFieldsAre400() {
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nContent-Length: 2\nContent-Length: 3\n\nabc") == 400)
    }

    @Test func contentLengthOverLimitIs413BeforeAnyBodyByte() {
        let limits = RequestParserLimits(maxBodyBytes: 10)
        var parser = RequestParser(limits: limits)
        parser.append("POST / HTTP/1.1\nHost: a\nContent-Length: 11\n\n".crlf)
        guard case .error(let e) = parser.next() else { Issue.record("expected 413"); return }
        #expect(e.status == .contentTooLarge)
        // Huge but representable lengths are 413, not 400.
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nContent-Length: 9223372036854775807\n\n") == 413)
    }

    @Test func contentLengthExactlyAtLimitPasses() throws {
        let limits = RequestParserLimits(maxBodyBytes: 10)
        let (r, _) = try #require(firstRequest("POST / HTTP/1.1\nHost: a\nContent-Length: 10\n\n0123456789", limits: limits))
        #expect(r.body.count == 10)
    }

    @Test func bodyArrivingLaterIsCollected() {
        var parser = RequestParser()
        parser.append("POST / HTTP/1.1\nHost: a\nContent-Length: 6\n\nab".crlf)
        guard case .needMore = parser.next() else { Issue.record("expected needMore"); return }
        #expect(parser.phase == .body)
        parser.append(Array("cd".utf8))
        guard case .needMore = parser.next() else { Issue.record("expected needMore"); return }
        parser.append(Array("efGET".utf8))
        guard case .request(let r, _) = parser.next() else { Issue.record("expected request"); return }
        #expect(r.body == Array("abcdef".utf8))
        #expect(parser.bufferedByteCount == 3)
        #expect(parser.phase == .head)
    }

    // MARK: Transfer-Encoding

    @Test(arguments: ["chunked", "Chunked", "CHUNKED", " chunked ", "chunked,", ", chunked"])
    func chunkedAlone(value: String) throws {
        let (r, _) = try #require(firstRequest("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: \(value)\n\n3\nabc\n0\n\n"))
        #expect(r.body == Array("abc".utf8))
    }

    @Test func transferEncodingWithContentLengthIs400() throws {
        let e = try #require(parseError("POST / HTTP/1.1\nHost: a\nContent-Length: 3\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n"))
        #expect(e.status == .badRequest)
        #expect(e.detail.contains("Content-Length and Transfer-Encoding must not both be present"))
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\nContent-Length: 3\n\n") == 400)
    }

    @Test func transferEncodingInHTTP10Is400() {
        #expect(errorCode("POST / HTTP/1.0\nTransfer-Encoding: chunked\n\n0\n\n") == 400)
    }

    @Test(arguments: ["gzip", "identity", "gzip, chunked", "chunked, gzip", "chunked, chunked", "chunked;q=1", "x-custom"])
    func unsupportedCodingIs501(value: String) {
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: \(value)\n\n0\n\n") == 501)
    }

    @Test func chunkedInTwoFieldsIs501() {
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\nTransfer-Encoding: chunked\n\n0\n\n") == 501)
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\nTransfer-Encoding: gzip\n\n0\n\n") == 501)
    }

    @Test func gzipThenChunkedInTwoFieldsIs501() {
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: gzip\nTransfer-Encoding: chunked\n\n0\n\n") == 501)
    }

    @Test(arguments: ["", " ", ",", "chu nked", "\"chunked\"", "chunked x"])
    func malformedTransferEncodingIs400(value: String) {
        #expect(errorCode("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: \(value)\n\n0\n\n") == 400)
    }

    // MARK: Chunked

    private func chunked(_ body: String, limits: RequestParserLimits = RequestParserLimits()) -> [EventDigest] {
        feedWhole(("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n" + body).crlf, limits: limits)
    }

    private func chunkedBody(_ body: String, limits: RequestParserLimits = RequestParserLimits()) -> [UInt8]? {
        firstRequest(("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n" + body).crlf, limits: limits)?.0.body
    }

    @Test func chunksAreJoined() {
        #expect(chunkedBody("5\nhello\n6\n world\n0\n\n") == Array("hello world".utf8))
        #expect(chunkedBody("A\n0123456789\na\n0123456789\n0\n\n")?.count == 20)
        #expect(chunkedBody("0005\nhello\n000\n\n") == Array("hello".utf8))
        #expect(chunkedBody("0\n\n") == [])
    }

    @Test(arguments: [
        "5;name=value\nhello\n0\n\n",
        "5;name\nhello\n0;last\n\n",
        "5 ; a = \"q\\\"x;y\" ; b\t;c=d\nhello\n0\n\n",
        "5;a=\"\"\nhello\n0\n\n",
    ])
    func chunkExtensionsAreAcceptedAndIgnored(body: String) {
        #expect(chunkedBody(body) == Array("hello".utf8))
    }

    @Test(arguments: [
        "5;\nhello\n0\n\n",              // no extension name
        "5;a=\nhello\n0\n\n",            // no value
        "5;a=\"open\nhello\n0\n\n",      // unterminated quoted string
        "5 \nhello\n0\n\n",              // whitespace without an extension
        "5;a b\nhello\n0\n\n",           // junk after a name
        "5;a=b c\nhello\n0\n\n",
        "5;a=\"x\u{1}\"\nhello\n0\n\n",  // control in quoted string
    ])
    func malformedChunkExtensionIs400(body: String) {
        #expect(chunked(body) == [.error(400)])
    }

    @Test(arguments: [
        "g\nhello\n0\n\n",                    // not hex
        "\nhello\n0\n\n",                     // empty size
        "-5\nhello\n0\n\n",
        "+5\nhello\n0\n\n",
        "0x5\nhello\n0\n\n",
        "00000000000000005\nhello\n0\n\n",    // 17 digits
        "8000000000000000\n",                 // overflows Int
        "ffffffffffffffffff\n",
        "5\nhello world\n0\n\n",              // data longer than the size
        "5\nhelloX\n0\n\n",
        "5\nhello\n0\nX-T : 1\n\n",           // bad trailer
        "5\nhello\n0\n folded\n\n",           // obs-fold in trailers
    ])
    func malformedChunkIs400(body: String) {
        #expect(chunked(body) == [.error(400)])
    }

    @Test func bareLineFeedsInChunkedAreRejected() {
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        for body in ["5\nhello\r\n0\r\n\r\n", "5\r\nhello\n0\r\n\r\n", "5\r\nhello\r\n0\n\r\n", "5\r\nhello\r\n0\r\n\n", "5\r\nhello\r\n0\r\nX: 1\n\r\n", "5\r\nhello\r0\r\n\r\n"] {
            #expect(errorCode(Array((head + body).utf8)) == 400, "\(body.debugDescription)")
        }
    }

    @Test func trailersAreValidatedThenDiscarded() throws {
        let (r, _) = try #require(firstRequest("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n2\nok\n0\nX-Checksum: abc\nHost: evil\n\n"))
        #expect(r.body == Array("ok".utf8))
        #expect(r.headers["X-Checksum"] == nil)
        #expect(r.headers.values(for: "Host") == ["a"])
    }

    @Test func chunkedTotalOverLimitIs413AsSoonAsASizeSaysSo() {
        let limits = RequestParserLimits(maxBodyBytes: 10)
        var parser = RequestParser(limits: limits)
        parser.append("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n6\nabcdef\n5\n".crlf)
        guard case .error(let e) = parser.next() else { Issue.record("expected 413"); return }
        #expect(e.status == .contentTooLarge)
        #expect(chunked("b\n", limits: limits) == [.error(413)])
    }

    @Test func chunkedTotalExactlyAtLimitPasses() {
        let limits = RequestParserLimits(maxBodyBytes: 10)
        #expect(chunkedBody("6\nabcdef\n4\nghij\n0\n\n", limits: limits)?.count == 10)
    }

    @Test func chunkExtensionBudgetIsEnforced() {
        var limits = RequestParserLimits()
        limits.maxChunkExtensionBytes = 8
        // ";a=12345" is 8 bytes: exactly the budget.
        #expect(chunkedBody("1;a=12345\nx\n0\n\n", limits: limits) == [UInt8(ascii: "x")])
        #expect(chunked("1;a=123456\nx\n0\n\n", limits: limits) == [.error(413)])
        // The budget spans the whole message.
        #expect(chunked("1;a=12\nx\n1;b=2\nx\n0\n\n", limits: limits) == [.error(413)])
        // An unfinished line that can only exceed it fails before its LF arrives.
        var parser = RequestParser(limits: limits)
        parser.append("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n1;aaaaaaaaaaaaaaaaaaaaaaaaa".crlf)
        guard case .error(let e) = parser.next() else { Issue.record("expected 413"); return }
        #expect(e.status == .contentTooLarge)
    }

    @Test func trailersCountTowardHeaderLimits() {
        // Head fields: "Host: a\r\n" (9) + "Transfer-Encoding: chunked\r\n" (28) = 37 bytes, 2 fields.
        let fields = RequestParserLimits(maxHeaderFields: 3)
        #expect(chunkedBody("0\nX: 1\n\n", limits: fields) == [])
        #expect(chunked("0\nX: 1\nY: 2\n\n", limits: fields) == [.error(431)])
        let bytes = RequestParserLimits(maxHeaderBytes: 37 + 8)
        #expect(chunkedBody("0\nX: 123\n\n", limits: bytes) == [])
        #expect(chunked("0\nX: 1234\n\n", limits: bytes) == [.error(431)])
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
