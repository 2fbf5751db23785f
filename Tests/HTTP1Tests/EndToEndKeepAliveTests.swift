import TestSupport
import Foundation
import Testing
@testable import HTTP1

extension EndToEnd {
    @Suite struct KeepAlive {
        @Test func keepAliveReusesOneConnection() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            for i in 0..<5 {
                try await c.request("GET", "/echo/\(i)")
                let r = try await c.readResponse()
                #expect(r.status == 200)
                #expect(r.text == "\(i)")
                #expect(r.version == "HTTP/1.1")
                #expect(r.header("Connection") == nil)
            }
            #expect(t.server.totalAcceptedConnections == 1)
            await t.stop()
        }

        /// Heads are serialized into a per-queue scratch buffer that grows on demand: small,
        /// huge, then small heads again on one connection all arrive whole and in order.
        @Test func headsLargerThanTheScratchBufferArriveWhole() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            for kib in [0, 6, 40, 1, 0] {
                try await c.request("GET", "/big-head/\(kib)")
                let r = try await c.readResponse()
                #expect(r.status == 200)
                #expect(r.text == "ok")
                #expect(r.header("X-Filler") == String(repeating: "h", count: kib * 1024))
            }
            await t.stop()
        }

        @Test func responseCarriesServerFields() async throws {
            let t = try TestServer.start { $0.serverName = "almanac/test" }
            let r = try await { () async throws -> RawHTTPClient.Response in
                let c = try t.client()
                try await c.request("GET", "/hello?secret=1")
                return try await c.readResponse()
            }()
            #expect(r.header("Server") == "almanac/test")
            #expect(r.header("Content-Length") == "17")
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            let date = try #require(r.header("Date"))
            // IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7).
            #expect(date.range(of: #"^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$"#,
                               options: .regularExpression) != nil)
            let id = try #require(r.header("X-Request-ID"))
            #expect(!id.isEmpty)
            #expect(await waitUntil { t.log.value.count == 1 })
            let entry = try #require(t.log.value.first)
            #expect(entry.path == "/hello")
            #expect(entry.method == "GET")
            #expect(entry.status == 200)
            #expect(entry.bytes == 17)
            #expect(entry.requestID == id)
            #expect(entry.remoteAddress == "127.0.0.1")
            await t.stop()
        }

        @Test func requestIDIsEchoedOrGenerated() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            try await c.request("GET", "/request-id", extra: ["X-Request-ID: abc-123_XYZ"])
            let echoed = try await c.readResponse()
            #expect(echoed.header("X-Request-ID") == "abc-123_XYZ")
            #expect(echoed.text == "abc-123_XYZ") // the handler saw it too
            try await c.request("GET", "/request-id", extra: ["X-Request-ID: has space"])
            let replaced = try await c.readResponse()
            #expect(replaced.header("X-Request-ID") != "has space")
            #expect(replaced.text == replaced.header("X-Request-ID"))
            try await c.request("GET", "/request-id", extra: ["X-Request-ID: " + String(repeating: "a", count: 129)])
            #expect(try await c.readResponse().header("X-Request-ID")?.count != 129)
            try await c.request("GET", "/request-id")
            let a = try await c.readResponse().header("X-Request-ID")
            try await c.request("GET", "/request-id")
            let b = try await c.readResponse().header("X-Request-ID")
            #expect(a != nil && a != b)
            await t.stop()
        }

        @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            // The first answer is the slowest: order must still be kept.
            try await c.send("GET /delay/50 HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/2 HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/3 HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try await c.readResponse().text == "delayed 50")
            #expect(try await c.readResponse().text == "2")
            #expect(try await c.readResponse().text == "3")
            await t.stop()
        }

        @Test func requestArrivingWhileTheResponderWorksIsKept() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            try await c.request("GET", "/gate")
            #expect(await waitUntil { t.gate.arrived == 1 })
            try await c.request("GET", "/echo/second")
            t.gate.open()
            #expect(try await c.readResponse().text == "through the gate")
            #expect(try await c.readResponse().text == "second")
            await t.stop()
        }

        @Test func manyPipelinedRequestsBeyondTheReadHighWater() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            let count = 2000 // ~70 KiB of requests while the first one waits at the gate
            var text = "GET /gate HTTP/1.1\r\nHost: a\r\n\r\n"
            for i in 1..<count { text += "GET /echo/\(i) HTTP/1.1\r\nHost: a\r\n\r\n" }
            let all = text
            let sender = Task { try await c.send(all) }
            #expect(await waitUntil { t.gate.arrived == 1 })
            t.gate.open()
            #expect(try await c.readResponse().text == "through the gate")
            for i in 1..<count {
                let r = try await c.readResponse()
                guard r.text == "\(i)" else {
                    Issue.record("response \(i) was \(r.text)")
                    return
                }
            }
            try await sender.value
            await t.stop()
        }

        @Test func headHasTheGetLengthAndNoBody() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            // Pipelined HEAD then GET: a body after the HEAD would corrupt the second answer.
            try await c.send("HEAD /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/after HTTP/1.1\r\nHost: a\r\n\r\n")
            let head = try await c.readResponse(head: true)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "17")
            let next = try await c.readResponse()
            #expect(next.text == "after")
            await t.stop()
        }

        @Test func noContentAndNotModifiedHaveNoBody() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            try await c.send("GET /no-content HTTP/1.1\r\nHost: a\r\n\r\nGET /not-modified HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/3 HTTP/1.1\r\nHost: a\r\n\r\n")
            let noContent = try await c.readResponse()
            #expect(noContent.status == 204)
            #expect(noContent.header("Content-Length") == nil)
            let notModified = try await c.readResponse()
            #expect(notModified.status == 304)
            #expect(notModified.header("ETag") == "\"1\"")
            #expect(try await c.readResponse().text == "3")
            await t.stop()
        }

        @Test func http10ClosesByDefault() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            try await c.send("GET /hello HTTP/1.0\r\n\r\n")
            let r = try await c.readResponse()
            #expect(r.version == "HTTP/1.0")
            #expect(r.status == 200)
            #expect(r.header("Connection") == "close")
            #expect(await c.isClosedByPeer())
            await t.stop()
        }

        @Test func http10KeepAliveOnRequest() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            for i in 0..<2 {
                try await c.send("GET /echo/\(i) HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let r = try await c.readResponse()
                #expect(r.version == "HTTP/1.0")
                #expect(r.header("Connection") == "keep-alive")
                #expect(r.text == "\(i)")
            }
            #expect(t.server.totalAcceptedConnections == 1)
            await t.stop()
        }

        @Test func connectionCloseIsHonoured() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            try await c.request("GET", "/hello", extra: ["Connection: close"])
            let r = try await c.readResponse()
            #expect(r.header("Connection") == "close")
            #expect(await c.isClosedByPeer())
            #expect(await waitUntil { t.server.openConnections == 0 })
            await t.stop()
        }

        @Test func expectContinueGetsInterimResponse() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            try await c.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let interim = try await c.readResponse()
            #expect(interim.status == 100)
            try await c.send("hello")
            let r = try await c.readResponse()
            #expect(r.status == 200)
            #expect(r.text == "got 5")
            await t.stop()
        }

        @Test func halfClosedClientStillGetsItsAnswers() async throws {
            let t = try TestServer.start()
            let c = try t.client()
            try await c.send("GET /echo/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /delay/20 HTTP/1.1\r\nHost: a\r\n\r\n")
            c.shutdownWrite()
            #expect(try await c.readResponse().text == "1")
            #expect(try await c.readResponse().text == "delayed 20")
            #expect(await c.isClosedByPeer())
            await t.stop()
        }

        @Test(.enabled(if: ipv6LoopbackAvailable, "this machine has no IPv6 loopback (::1) to listen on"))
        func ipv6Loopback() async throws {
            let t = try TestServer.start(host: "::1")
            let c = try RawHTTPClient(port: t.port, host: "::1")
            try await c.request("GET", "/hello")
            #expect(try await c.readResponse().status == 200)
            #expect(await waitUntil { t.log.value.first?.remoteAddress == "::1" })
            await t.stop()
        }
    }
}
