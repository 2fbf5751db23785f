import Testing
@testable import HTTP1

/// Each limit: exactly at it passes, one over fails, and an unfinished head that can only
/// exceed it fails before the rest arrives.
@Suite struct RequestParserLimitsTests {
    /// `GET /aaa… HTTP/1.1` of exactly `length` bytes (without CRLF).
    private func requestLine(length: Int) -> String {
        let fixed = "GET / HTTP/1.1".utf8.count
        return "GET /" + String(repeating: "a", count: length - fixed) + " HTTP/1.1"
    }

    @Test func requestLineExactlyAtLimitPasses() {
        let limits = RequestParserLimits(maxRequestLineBytes: 64)
        #expect(firstRequest(requestLine(length: 64) + "\nHost: a\n\n", limits: limits) != nil)
    }

    @Test func requestLineOneOverIs414() {
        let limits = RequestParserLimits(maxRequestLineBytes: 64)
        #expect(errorCode(requestLine(length: 65) + "\nHost: a\n\n", limits: limits) == 414)
    }

    @Test func requestLineTooLongIs414BeforeItsEnd() {
        let limits = RequestParserLimits(maxRequestLineBytes: 64)
        var parser = RequestParser(limits: limits)
        parser.append(Array(repeating: UInt8(ascii: "a"), count: 64))
        guard case .needMore = parser.next() else { Issue.record("64 bytes may still be a valid line"); return }
        parser.append(Array("\r".utf8))
        guard case .needMore = parser.next() else { Issue.record("a CR may be the line's own"); return }
        var over = RequestParser(limits: limits)
        over.append(Array(repeating: UInt8(ascii: "a"), count: 65))
        guard case .error(let e) = over.next() else { Issue.record("expected 414"); return }
        #expect(e.status == .uriTooLong)
    }

    @Test func defaultRequestLineLimitIs8192() {
        #expect(firstRequest(requestLine(length: 8192) + "\nHost: a\n\n") != nil)
        #expect(errorCode(requestLine(length: 8193) + "\nHost: a\n\n") == 414)
    }

    /// A header section of `count` fields `X-n: v` (plus Host).
    private func head(fields count: Int) -> String {
        var text = "GET / HTTP/1.1\nHost: a\n"
        for n in 1..<count { text += "X-\(n): v\n" }
        return text + "\n"
    }

    @Test func fieldCountExactlyAtLimitPasses() {
        #expect(firstRequest(head(fields: 100)) != nil)
        #expect(firstRequest(head(fields: 5), limits: RequestParserLimits(maxHeaderFields: 5)) != nil)
    }

    @Test func fieldCountOneOverIs431() {
        #expect(errorCode(head(fields: 101)) == 431)
        #expect(errorCode(head(fields: 6), limits: RequestParserLimits(maxHeaderFields: 5)) == 431)
    }

    /// `Host: a\r\n` (9 bytes) then one `X: vvv…\r\n` field making the section `total` bytes.
    private func head(headerBytes total: Int) -> String {
        let padding = total - 9 - "X: \r\n".utf8.count
        return "GET / HTTP/1.1\nHost: a\nX: " + String(repeating: "v", count: padding) + "\n\n"
    }

    @Test func headerBytesExactlyAtLimitPasses() {
        #expect(firstRequest(head(headerBytes: 100), limits: RequestParserLimits(maxHeaderBytes: 100)) != nil)
        #expect(firstRequest(head(headerBytes: 16384)) != nil)
    }

    @Test func headerBytesOneOverIs431() {
        #expect(errorCode(head(headerBytes: 101), limits: RequestParserLimits(maxHeaderBytes: 100)) == 431)
        #expect(errorCode(head(headerBytes: 16385)) == 431)
    }

    @Test func headerSectionTooLargeIs431BeforeItsEnd() {
        let limits = RequestParserLimits(maxHeaderBytes: 100)
        var parser = RequestParser(limits: limits)
        parser.append("GET / HTTP/1.1\nHost: a\n".crlf)
        // 9 bytes used; 90 bytes of a field line need 92 with their CRLF: over by one.
        parser.append(Array(repeating: UInt8(ascii: "x"), count: 90))
        guard case .error(let e) = parser.next() else { Issue.record("expected 431"); return }
        #expect(e.status == .requestHeaderFieldsTooLarge)
        #expect(parser.bufferedByteCount <= 100 + 16)

        var atLimit = RequestParser(limits: limits)
        atLimit.append("GET / HTTP/1.1\nHost: a\n".crlf)
        atLimit.append(Array(repeating: UInt8(ascii: "x"), count: 89))
        guard case .needMore = atLimit.next() else { Issue.record("9 + 89 + 2 bytes are within the limit"); return }
    }

    @Test func requestLineDoesNotCountTowardHeaderBytes() {
        let limits = RequestParserLimits(maxRequestLineBytes: 200, maxHeaderBytes: 9)
        #expect(firstRequest(requestLine(length: 200) + "\nHost: a\n\n", limits: limits) != nil)
    }

    @Test func limitsApplyPerRequestOnAConnection() {
        let limits = RequestParserLimits(maxHeaderFields: 2)
        let one = "GET / HTTP/1.1\nHost: a\nX: 1\n\n"
        let events = feedWhole((one + one + one).crlf, limits: limits)
        #expect(events.count == 3)
        #expect(!events.contains(.error(431)))
    }
}
