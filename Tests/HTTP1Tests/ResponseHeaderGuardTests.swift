import TestSupport
import Testing
@testable import HTTP1

/// The response writer's last line of defence: no header name or value with a control byte
/// is ever written, whatever a handler put there.
@Suite struct ResponseHeaderGuardTests {
    @Test func onlyTokenNamesAndControlFreeValuesPass() {
        let safe: HTTPHeaders = ["ETag": "\"abc\"", "Cache-Control": "public, max-age=60", "X-Note": "plain é text", "Empty": ""]
        #expect(ResponseHeaderGuard.firstUnsafeField(safe) == nil)
        for value in ["\"x\"\r\nSet-Cookie: a=b", "a\rb", "a\nb", "a\u{0}b", "a\tb", "a\u{7F}b", "a\u{1B}[31m"] {
            var headers = safe
            headers.add("X-Late", value)
            #expect(ResponseHeaderGuard.firstUnsafeField(headers) == 4, "\(value.debugDescription)")
        }
        for name in ["", "X-A\r\nSet-Cookie", "X A", "X-A:", "Ünicode", "X\u{0}"] {
            var headers = HTTPHeaders()
            headers.add(name, "v")
            #expect(ResponseHeaderGuard.firstUnsafeField(headers) == 0, "\(name.debugDescription)")
        }
    }

    /// The head writer checks the bytes it copies: a safe head says so, any unsafe field
    /// (anywhere in the list) makes the whole head unsendable.
    @Test func theHeadWriterReportsAnUnsafeField() {
        func safe(_ headers: HTTPHeaders) -> Bool {
            let response = HTTPResponse(status: .ok, headers: headers, body: [])
            let bound = ResponseHead.capacity(response, requestID: "r", date: Array("d".utf8), serverName: "s")
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bound, alignment: 1)
            defer { buffer.deallocate() }
            return ResponseHead.write(response, version: .http1_1, isHead: false, close: false, requestID: "r",
                                      date: Array("d".utf8), serverName: "s", into: buffer).safe
        }
        #expect(safe(["ETag": "\"abc\"", "X-Note": "plain é text"]))
        #expect(!safe(["ETag": "\"abc\"", "X-Note": "a\r\nSet-Cookie: a=b"]))
        #expect(!safe(["X-A\nB": "v", "ETag": "\"abc\""]))
        #expect(!safe(["": "v"]))
    }

    /// The eight-bytes-at-a-time scans agree with the byte-by-byte rules on every length and
    /// position (random bytes, biased to the boundaries).
    @Test func wordScansAgreeWithTheByteRules() {
        var random = SplitMix64(seed: 0x6EAD)
        let interesting: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x3A, 0x7E, 0x7F, 0x80, 0xC3, 0xFF, 0x41]
        for _ in 0..<20_000 {
            let count = Int(random.next() % 40)
            let bytes: [UInt8] = (0..<count).map { _ in
                random.next() % 3 == 0 ? interesting[Int(random.next() % UInt64(interesting.count))]
                    : UInt8(ascii: "a") + UInt8(random.next() % 26)
            }
            let nameRule = bytes.isEmpty || bytes.contains { $0 <= 0x20 || $0 >= 0x7F || $0 == 0x3A }
            let valueRule = bytes.contains { $0 < 0x20 || $0 == 0x7F }
            bytes.withUnsafeBytes { raw in
                #expect(ResponseHeaderGuard.unsafeNameBytes(raw) == nameRule, "\(bytes)")
                #expect(ResponseHeaderGuard.unsafeValueBytes(raw) == valueRule, "\(bytes)")
            }
        }
    }

    @Test func theLogNamesTheFieldWithoutItsBytes() {
        let field = HTTPHeaders.Field(name: "X-A\r\nSet-Cookie", value: "secret")
        #expect(ResponseHeaderGuard.describe(field) == "X-A??Set-Cookie")
    }
}

extension EndToEnd {
    /// Over a socket: every kind of hostile header answers 500, never the header, and the
    /// server's log says why; ready and pending responses alike.
    @Suite struct UnsafeHeaders {
        @Test func aHeaderWithAControlByteIsA500() async throws {
            let t = try TestServer.start()
            for kind in ["crlf", "lf", "nul", "tab", "del", "name", "colon", "pending"] {
                let c = try RawHTTPClient(port: t.port)
                try await c.send(Array("GET /unsafe-header/\(kind) HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
                let response = try await c.readResponse()
                #expect(response.status == 500, "\(kind)")
                #expect(response.header("Set-Cookie") == nil, "\(kind)")
                #expect(response.header("Content-Type") == "application/problem+json", "\(kind)")
                #expect(!response.text.contains("must not be sent"), "\(kind)")
            }
            #expect(t.errors.value.filter { $0.contains("holds a control character") }.count == 8, "\(t.errors.value)")
            let plain = try RawHTTPClient(port: t.port)
            try await plain.send(Array("GET /unsafe-header/none HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
            #expect(try await plain.readResponse().status == 200)
            await t.stop()
        }
    }
}
