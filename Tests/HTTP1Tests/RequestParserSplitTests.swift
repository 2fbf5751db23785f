import Testing
@testable import HTTP1

/// The property that makes the parser safe behind any TCP segmentation: feeding an input
/// split at any byte boundary, or one byte at a time, yields the same requests and errors
/// as feeding it whole. (`expectContinue` depends on what has arrived, by definition, so
/// it is compared separately: at most once per request, and only before that request.)
@Suite struct RequestParserSplitTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var limits = RequestParserLimits()
        var testDescription: String { name }
    }

    static let small = RequestParserLimits(maxRequestLineBytes: 40, maxHeaderBytes: 64, maxHeaderFields: 4, maxBodyBytes: 16)

    static let cases: [Case] = [
        Case(name: "simple GET", bytes: "GET /a?b=c HTTP/1.1\nHost: x\n\n".crlf),
        Case(name: "pipelined mix", bytes: ("GET /1 HTTP/1.1\nHost: x\nConnection: close\n\n"
            + "POST /2 HTTP/1.1\nHost: x\nContent-Length: 5\n\nhello"
            + "\nPOST /3 HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n3;a=\"b;c\"\nabc\nA\n0123456789\n0\nT: 1\n\n"
            + "GET /4 HTTP/1.0\nConnection: keep-alive\n\n").crlf),
        Case(name: "leading empty lines", bytes: "\n\n\nGET / HTTP/1.1\nHost: x\n\n".crlf),
        Case(name: "absolute-form", bytes: "GET http://h:1/p?q HTTP/1.1\nHost: y\n\n".crlf),
        Case(name: "OPTIONS *", bytes: "OPTIONS * HTTP/1.1\nHost: y\n\n".crlf),
        Case(name: "expect 100-continue", bytes: "PUT / HTTP/1.1\nHost: x\nExpect: 100-continue\nContent-Length: 3\n\nabcGET / HTTP/1.1\nHost: x\n\n".crlf),
        Case(name: "expect chunked", bytes: "PUT / HTTP/1.1\nHost: x\nExpect: 100-continue\nTransfer-Encoding: chunked\n\n1\na\n0\n\n".crlf),
        Case(name: "unknown expectation", bytes: "PUT / HTTP/1.1\nHost: x\nExpect: nope\n\n".crlf),
        Case(name: "bare LF in field", bytes: Array("GET / HTTP/1.1\r\nHost: x\nA: b\r\n\r\n".utf8)),
        Case(name: "bare LF ending head", bytes: Array("GET / HTTP/1.1\r\nHost: x\r\n\n".utf8)),
        Case(name: "bare CR", bytes: Array("GET / HTTP/1.1\r\nHost: x\rA: b\r\n\r\n".utf8)),
        Case(name: "obs-fold", bytes: "GET / HTTP/1.1\nHost: x\nA: b\n c\n\n".crlf),
        Case(name: "space before colon", bytes: "GET / HTTP/1.1\nHost : x\n\n".crlf),
        Case(name: "CL and TE", bytes: "POST / HTTP/1.1\nHost: x\nContent-Length: 1\nTransfer-Encoding: chunked\n\n0\n\n".crlf),
        Case(name: "conflicting CL", bytes: "POST / HTTP/1.1\nHost: x\nContent-Length: 1, 2\n\nab".crlf),
        Case(name: "gzip", bytes: "POST / HTTP/1.1\nHost: x\nTransfer-Encoding: gzip, chunked\n\n0\n\n".crlf),
        Case(name: "505", bytes: "GET / HTTP/2.0\nHost: x\n\n".crlf),
        Case(name: "good then bad", bytes: "GET / HTTP/1.1\nHost: x\n\nGET / HTTP/1.1\n\n".crlf),
        Case(name: "chunk data too long", bytes: "POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n2\nabc\n0\n\n".crlf),
        Case(name: "chunk bare LF", bytes: Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\n0\r\n\r\n".utf8)),
        Case(name: "414", bytes: "GET /0123456789012345678901234567890123456789 HTTP/1.1\nHost: x\n\n".crlf, limits: small),
        Case(name: "request line at limit", bytes: "GET /01234567890123456789012345 HTTP/1.1\nHost: x\n\n".crlf, limits: small),
        Case(name: "431 bytes", bytes: "GET / HTTP/1.1\nHost: x\nA: 012345678901234567890123456789012345678901234567890\n\n".crlf, limits: small),
        Case(name: "header bytes at limit", bytes: "GET / HTTP/1.1\nHost: x\nA: 01234567890123456789012345678901234567890123456789\n\n".crlf, limits: small),
        Case(name: "431 bare LF at limit", bytes: Array("GET / HTTP/1.1\r\nHost: x\r\nA: 01234567890123456789012345678901234567890123456789\n\r\n".utf8), limits: small),
        Case(name: "431 fields", bytes: "GET / HTTP/1.1\nHost: x\nA: 1\nB: 2\nC: 3\nD: 4\n\n".crlf, limits: small),
        Case(name: "413 CL", bytes: "POST / HTTP/1.1\nHost: x\nContent-Length: 17\n\n".crlf, limits: small),
        Case(name: "413 chunked", bytes: "POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n8\n01234567\n9\n".crlf, limits: small),
        Case(name: "chunked at limit", bytes: "POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n8\n01234567\n8\n01234567\n0\n\n".crlf, limits: small),
        Case(name: "trailers over limit", bytes: "POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n0\nA: 1\nB: 2\nC: 3\n\n".crlf, limits: small),
        Case(name: "chunk extension budget", bytes: "POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n1;aaaaaaaaaaaaaaaa\nx\n1;b\ny\n0\n\n".crlf, limits: {
            var l = small
            l.maxChunkExtensionBytes = 18
            return l
        }()),
        Case(name: "long chunk size", bytes: "POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n00000000000000000000001\nx\n0\n\n".crlf, limits: {
            var l = small
            l.maxChunkExtensionBytes = 2
            return l
        }()),
        Case(name: "binary garbage", bytes: [0x00, 0xFF, 0x0D, 0x0A, 0x47, 0x0A, 0x0D, 0x0D, 0x0A]),
    ]

    /// What each case must produce whole: 0 for a request, else the error status.
    static let expected: [String: [Int]] = [
        "simple GET": [0], "pipelined mix": [0, 0, 0, 0], "leading empty lines": [0], "absolute-form": [0],
        "OPTIONS *": [0], "expect 100-continue": [0, 0], "expect chunked": [0], "unknown expectation": [417],
        "bare LF in field": [400], "bare LF ending head": [400], "bare CR": [400], "obs-fold": [400],
        "space before colon": [400], "CL and TE": [400], "conflicting CL": [400], "gzip": [501], "505": [505],
        "good then bad": [0, 400], "chunk data too long": [400], "chunk bare LF": [400], "414": [414],
        "request line at limit": [0], "431 bytes": [431], "header bytes at limit": [0],
        "431 bare LF at limit": [400], "431 fields": [431], "413 CL": [413], "413 chunked": [413],
        "chunked at limit": [0], "trailers over limit": [431], "chunk extension budget": [413],
        "long chunk size": [413], "binary garbage": [400],
    ]

    @Test(arguments: cases)
    func caseProducesItsExpectedOutcome(c: Case) {
        let codes = outcome(feedWhole(c.bytes, limits: c.limits)).map { event -> Int in
            if case .error(let code) = event { return code }
            return 0
        }
        #expect(codes == Self.expected[c.name])
    }

    /// Requests and errors only: the part that must not depend on segmentation.
    private func outcome(_ events: [EventDigest]) -> [EventDigest] {
        events.filter(\.isRequestOrError)
    }

    /// `expectContinue` never twice in a row and never after the last request or error.
    private func checkExpectContinuePlacement(_ events: [EventDigest], _ label: String) {
        var previousWasExpect = false
        for event in events {
            if case .expectContinue = event {
                #expect(!previousWasExpect, "\(label): expectContinue twice for one request")
                previousWasExpect = true
            } else {
                previousWasExpect = false
            }
        }
    }

    @Test(arguments: cases)
    func everySplitGivesTheSameOutcome(c: Case) {
        let whole = feedWhole(c.bytes, limits: c.limits)
        #expect(!whole.isEmpty, "every case should produce something")
        let expected = outcome(whole)
        for cut in 1..<c.bytes.count {
            let events = feed([Array(c.bytes[..<cut]), Array(c.bytes[cut...])], limits: c.limits)
            #expect(outcome(events) == expected, "split at \(cut)")
            checkExpectContinuePlacement(events, "split at \(cut)")
        }
        let bytewise = feedByteByByte(c.bytes, limits: c.limits)
        #expect(outcome(bytewise) == expected, "byte by byte")
        checkExpectContinuePlacement(bytewise, "byte by byte")
    }

    @Test(arguments: cases)
    func rawBufferAndArrayAppendAgree(c: Case) {
        var parser = RequestParser(limits: c.limits)
        c.bytes.withUnsafeBytes { parser.append($0) }
        var events: [EventDigest] = []
        while let e = EventDigest(parser.next()) {
            events.append(e)
            if case .error = e { break }
        }
        #expect(events == feedWhole(c.bytes, limits: c.limits))
    }
}
