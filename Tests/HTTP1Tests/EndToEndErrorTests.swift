import TestSupport
import Foundation
import Testing
@testable import HTTP1

extension EndToEnd {
    /// Every limit and malformation answers a problem+json with `Connection: close`, then
    /// the server closes (docs/server.md "Limits and HTTP behaviour").
    @Suite struct Errors {
        /// Sends `raw`, expects `status` as a closing problem response, then EOF.
        static func expectProblem(_ raw: [UInt8], _ status: Int, port: Int,
                                  sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let c = try RawHTTPClient(port: port)
            try? await c.send(raw) // the server may stop reading once it has seen enough
            let response = try await c.readResponse()
            let r = (response, await c.isClosedByPeer())
            #expect(r.0.status == status, sourceLocation: sourceLocation)
            #expect(r.0.header("Connection") == "close", sourceLocation: sourceLocation)
            #expect(r.0.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
            #expect(r.0.header("Content-Length") == String(r.0.body.count), sourceLocation: sourceLocation)
            #expect(r.0.text.contains("\"status\":\(status)"), sourceLocation: sourceLocation)
            #expect(r.1, "the server should close after the error", sourceLocation: sourceLocation)
        }

        static func expectProblem(_ raw: String, _ status: Int, port: Int,
                                  sourceLocation: SourceLocation = #_sourceLocation) async throws {
            try await expectProblem(Array(raw.utf8), status, port: port, sourceLocation: sourceLocation)
        }

        @Test func badRequests() async throws {
            let t = try TestServer.start()
            let cases = [
                "GET /hello HTTP/1.1\r\n\r\n", // no Host on 1.1
                "GET /hello HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n folded\r\n\r\n", // obs-fold
                "GET /hello HTTP/1.1\r\nHost : a\r\n\r\n", // whitespace before the colon
                "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
                "garbage\r\n\r\n",
            ]
            for raw in cases {
                try await Self.expectProblem(raw, 400, port: t.port)
            }
            #expect(await waitUntil { t.log.value.count == cases.count })
            #expect(t.log.value.allSatisfy { $0.status == 400 && $0.method == "-" })
            await t.stop()
        }

        @Test func uriTooLong() async throws {
            let t = try TestServer.start()
            try await Self.expectProblem("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414, port: t.port)
            await t.stop()
        }

        @Test func headerFieldsTooLarge() async throws {
            let t = try TestServer.start { $0.maxHeaderBytes = 4096 }
            try await Self.expectProblem("GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 5000) + "\r\n\r\n", 431, port: t.port)
            var many = "GET / HTTP/1.1\r\nHost: a\r\n"
            for i in 0..<101 { many += "X-\(i): v\r\n" }
            try await Self.expectProblem(many + "\r\n", 431, port: t.port)
            await t.stop()
        }

        @Test func contentTooLarge() async throws {
            let t = try TestServer.start { $0.maxBodyBytes = 1000 }
            try await Self.expectProblem("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 1001\r\n\r\n", 413, port: t.port)
            await t.stop()
        }

        @Test func unsupportedTransferCoding() async throws {
            let t = try TestServer.start()
            try await Self.expectProblem("POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501, port: t.port)
            await t.stop()
        }

        @Test func unsupportedVersion() async throws {
            let t = try TestServer.start()
            try await Self.expectProblem("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505, port: t.port)
            await t.stop()
        }

        @Test func slowHeaderGets408() async throws {
            let t = try TestServer.start { $0.headerTimeoutSeconds = 0.3 }
            try await Self.expectProblem("GET /hello HTTP/1.1\r\nHost: a\r\n", 408, port: t.port)
            await t.stop()
        }

        @Test func slowBodyGets408() async throws {
            let t = try TestServer.start { $0.bodyTimeoutSeconds = 0.3 }
            try await Self.expectProblem("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc", 408, port: t.port)
            await t.stop()
        }

        @Test func errorAfterGoodRequestsKeepsEarlierAnswers() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            try await c.send("GET /echo/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /x HTTP/9.9\r\nHost: a\r\n\r\n")
            #expect(try await c.readResponse().text == "1")
            #expect(try await c.readResponse().status == 505)
            #expect(await c.isClosedByPeer())
            await t.stop()
        }
    }
}
