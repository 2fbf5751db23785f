import Testing
@testable import HTTP1

/// Generated request ids are two integers until written: their bytes in a head and their
/// text must be the `pppppppp-nnnnnnnn` form, and each loop's counter must hand out ids no
/// other loop hands out.
@Suite struct RequestIDTests {
    @Test func generatedIDText() {
        #expect(GeneratedRequestID(prefix: 0xDEAD_BEEF, counter: 1).description == "deadbeef-00000001")
        #expect(GeneratedRequestID(prefix: 0x0000_00A0, counter: 0xFFFF_FFFF).description == "000000a0-ffffffff")
        #expect(GeneratedRequestID(prefix: 1, counter: 0x1_0000_0000).description == "00000001-100000000")
        #expect(GeneratedRequestID(prefix: 0xFFFF_FFFF, counter: .max).description == "ffffffff-ffffffffffffffff")
        for counter: UInt64 in [0, 9, 10, 0xABCDEF, 1 << 40, .max] {
            let id = GeneratedRequestID(prefix: 0x1234_5678, counter: counter)
            #expect(id.byteCount == id.description.utf8.count)
        }
    }

    @Test func generatedIDBytesInTheHead() {
        let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)
        for counter: UInt64 in [1, 0x1_0000_0000, .max] {
            let id = RequestID.generated(GeneratedRequestID(prefix: 0xDEAD_BEEF, counter: counter))
            var out: [UInt8] = []
            ResponseHead.write(HTTPResponse(), version: .http1_1, isHead: false, close: false, requestID: id,
                               date: date, serverName: "almanac", into: &out)
            let text = String(decoding: out, as: UTF8.self)
            #expect(text.contains("\r\nX-Request-ID: \(id.description)\r\n"))
            #expect(ResponseHead.capacity(HTTPResponse(), requestID: id, date: date, serverName: "almanac") >= out.count)
        }
    }

    @Test func eachLoopHandsOutItsOwnCounters() {
        let loops = (0..<3).map { RequestIDSource(index: $0, count: 3, prefix: 7) }
        var seen = Set<UInt64>()
        for _ in 0..<100 {
            for loop in loops {
                let id = loop.next()
                #expect(id.prefix == 7)
                #expect(seen.insert(id.counter).inserted, "counter \(id.counter) handed out twice")
            }
        }
        #expect(seen == Set(1...300))
    }

    @Test func resolveKeepsAnAcceptableClientID() {
        let source = RequestIDSource(index: 0, count: 1, prefix: 0xAB)
        #expect(RequestID.resolve("abc-123", source: source) == .text("abc-123"))
        #expect(RequestID.resolve("a b", source: source) == .generated(GeneratedRequestID(prefix: 0xAB, counter: 1)))
        #expect(RequestID.resolve(nil, source: source) == .generated(GeneratedRequestID(prefix: 0xAB, counter: 2)))
        var request = HTTPRequest(method: "GET", target: "/")
        request.requestIDValue = .generated(GeneratedRequestID(prefix: 0xAB, counter: 3))
        #expect(request.requestID == "000000ab-00000003")
        request.requestID = "mine"
        #expect(request.requestIDValue == .text("mine"))
    }
}

/// The connection looks `X-Request-ID` and `traceparent` up only when the parser saw them: the
/// parser must see them in any case, and a request it did not make must look them up.
@Suite struct ServerReadFieldsTests {
    static func parse(_ text: String) -> HTTPRequest? {
        var parser = RequestParser()
        parser.append(text.crlf)
        guard case let .request(request, _) = parser.next() else { return nil }
        return request
    }

    @Test func theParserNotesTheFieldsTheServerReads() {
        #expect(Self.parse("GET / HTTP/1.1\nHost: x\n\n")?.serverReadFields == [])
        #expect(Self.parse("GET / HTTP/1.1\nHost: x\nx-REQUEST-id: a\n\n")?.serverReadFields == .requestID)
        #expect(Self.parse("GET / HTTP/1.1\nTraceParent: b\nHost: x\n\n")?.serverReadFields == .traceparent)
        #expect(Self.parse("GET / HTTP/1.1\nX-Request-ID: a\ntraceparent: b\nHost: x\n\n")?.serverReadFields == [.requestID, .traceparent])
        #expect(Self.parse("GET / HTTP/1.1\nHost: x\nX-Request-IDs: a\ntraceparents: b\n\n")?.serverReadFields == [])
    }

    @Test func aRequestBuiltByHandMayCarryAnyField() {
        #expect(HTTPRequest(method: "GET", target: "/").serverReadFields == .unknown)
    }
}
