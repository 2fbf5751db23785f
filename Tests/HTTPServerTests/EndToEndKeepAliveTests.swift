import Foundation
import Testing
@testable import HTTPServer

extension EndToEnd {
    @Suite struct KeepAlive {
        @Test func keepAliveReusesOneConnection() async throws {
            let t = try TestServer.start()
            try await blocking {
                let c = try t.client()
                for i in 0..<5 {
                    try c.request("GET", "/echo/\(i)")
                    let r = try c.readResponse()
                    #expect(r.status == 200)
                    #expect(r.bodyText == "\(i)")
                    #expect(r.version == "HTTP/1.1")
                    #expect(r.header("Connection") == nil)
                }
            }
            #expect(t.server.totalAcceptedConnections == 1)
            await t.stop()
        }

        @Test func responseCarriesServerFields() async throws {
            let t = try TestServer.start { $0.serverName = "almanac/test" }
            let r = try await blocking {
                let c = try t.client()
                try c.request("GET", "/hello?secret=1")
                return try c.readResponse()
            }
            #expect(r.header("Server") == "almanac/test")
            #expect(r.header("Content-Length") == "17")
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            let date = try #require(r.header("Date"))
            // IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7).
            #expect(date.range(of: #"^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$"#,
                               options: .regularExpression) != nil)
            let id = try #require(r.header("X-Request-ID"))
            #expect(!id.isEmpty)
            #expect(await waitUntil { t.log.all.count == 1 })
            let entry = try #require(t.log.all.first)
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
            try await blocking {
                let c = try t.client()
                try c.request("GET", "/request-id", extra: ["X-Request-ID: abc-123_XYZ"])
                let echoed = try c.readResponse()
                #expect(echoed.header("X-Request-ID") == "abc-123_XYZ")
                #expect(echoed.bodyText == "abc-123_XYZ") // the handler saw it too
                try c.request("GET", "/request-id", extra: ["X-Request-ID: has space"])
                let replaced = try c.readResponse()
                #expect(replaced.header("X-Request-ID") != "has space")
                #expect(replaced.bodyText == replaced.header("X-Request-ID"))
                try c.request("GET", "/request-id", extra: ["X-Request-ID: " + String(repeating: "a", count: 129)])
                #expect(try c.readResponse().header("X-Request-ID")?.count != 129)
                try c.request("GET", "/request-id")
                let a = try c.readResponse().header("X-Request-ID")
                try c.request("GET", "/request-id")
                let b = try c.readResponse().header("X-Request-ID")
                #expect(a != nil && a != b)
            }
            await t.stop()
        }

        @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
            let t = try TestServer.start()
            try await blocking {
                let c = try t.client()
                // The first answer is the slowest: order must still be kept.
                try c.send("GET /delay/50 HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/2 HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/3 HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(try c.readResponse().bodyText == "delayed 50")
                #expect(try c.readResponse().bodyText == "2")
                #expect(try c.readResponse().bodyText == "3")
            }
            await t.stop()
        }

        @Test func headHasTheGetLengthAndNoBody() async throws {
            let t = try TestServer.start()
            try await blocking {
                let c = try t.client()
                // Pipelined HEAD then GET: a body after the HEAD would corrupt the second answer.
                try c.send("HEAD /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/after HTTP/1.1\r\nHost: a\r\n\r\n")
                let head = try c.readResponse(head: true)
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == "17")
                let next = try c.readResponse()
                #expect(next.bodyText == "after")
            }
            await t.stop()
        }

        @Test func noContentAndNotModifiedHaveNoBody() async throws {
            let t = try TestServer.start()
            try await blocking {
                let c = try t.client()
                try c.send("GET /no-content HTTP/1.1\r\nHost: a\r\n\r\nGET /not-modified HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/3 HTTP/1.1\r\nHost: a\r\n\r\n")
                let noContent = try c.readResponse()
                #expect(noContent.status == 204)
                #expect(noContent.header("Content-Length") == nil)
                let notModified = try c.readResponse()
                #expect(notModified.status == 304)
                #expect(notModified.header("ETag") == "\"1\"")
                #expect(try c.readResponse().bodyText == "3")
            }
            await t.stop()
        }

        @Test func http10ClosesByDefault() async throws {
            let t = try TestServer.start()
            try await blocking {
                let c = try t.client()
                try c.send("GET /hello HTTP/1.0\r\n\r\n")
                let r = try c.readResponse()
                #expect(r.version == "HTTP/1.0")
                #expect(r.status == 200)
                #expect(r.header("Connection") == "close")
                #expect(c.isClosedByPeer())
            }
            await t.stop()
        }

        @Test func http10KeepAliveOnRequest() async throws {
            let t = try TestServer.start()
            try await blocking {
                let c = try t.client()
                for i in 0..<2 {
                    try c.send("GET /echo/\(i) HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                    let r = try c.readResponse()
                    #expect(r.version == "HTTP/1.0")
                    #expect(r.header("Connection") == "keep-alive")
                    #expect(r.bodyText == "\(i)")
                }
            }
            #expect(t.server.totalAcceptedConnections == 1)
            await t.stop()
        }

        @Test func connectionCloseIsHonoured() async throws {
            let t = try TestServer.start()
            try await blocking {
                let c = try t.client()
                try c.request("GET", "/hello", extra: ["Connection: close"])
                let r = try c.readResponse()
                #expect(r.header("Connection") == "close")
                #expect(c.isClosedByPeer())
            }
            #expect(await waitUntil { t.server.openConnections == 0 })
            await t.stop()
        }

        @Test func expectContinueGetsInterimResponse() async throws {
            let t = try TestServer.start()
            try await blocking {
                let c = try t.client()
                try c.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
                let interim = try c.readResponse()
                #expect(interim.status == 100)
                try c.send("hello")
                let r = try c.readResponse()
                #expect(r.status == 200)
                #expect(r.bodyText == "got 5")
            }
            await t.stop()
        }

        @Test func halfClosedClientStillGetsItsAnswers() async throws {
            let t = try TestServer.start()
            try await blocking {
                let c = try t.client()
                try c.send("GET /echo/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /delay/20 HTTP/1.1\r\nHost: a\r\n\r\n")
                c.shutdownWrite()
                #expect(try c.readResponse().bodyText == "1")
                #expect(try c.readResponse().bodyText == "delayed 20")
                #expect(c.isClosedByPeer())
            }
            await t.stop()
        }

        @Test func ipv6Loopback() async throws {
            guard let t = try? TestServer.start(host: "::1") else { return } // no IPv6 here
            try await blocking {
                let c = try TestClient(port: t.port, host: "::1")
                try c.request("GET", "/hello")
                #expect(try c.readResponse().status == 200)
            }
            #expect(await waitUntil { t.log.all.first?.remoteAddress == "::1" })
            await t.stop()
        }
    }
}
