import TestSupport
import Foundation
import Testing
@testable import HTTP1

extension EndToEnd {
    /// Connection lifetimes: idle limits, vanished clients, the connection cap, load.
    @Suite struct Connections {
        @Test func idleKeepAliveConnectionIsClosedSilently() async throws {
            let t = try TestServer.start { $0.idleTimeoutSeconds = 0.3 }
            let c = try t.client()
            try await c.request("GET", "/hello")
            #expect(try await c.readResponse().status == 200)
            #expect(await c.isClosedByPeer()) // no 408: nothing was in progress
            #expect(await waitUntil { t.server.openConnections == 0 })
            await t.stop()
        }

        @Test func silentFreshConnectionIsClosed() async throws {
            let t = try TestServer.start { $0.headerTimeoutSeconds = 0.3 }
            let c = try t.client()
            #expect(await c.isClosedByPeer())
            await t.stop()
        }

        @Test func clientGoneMidRequestOrMidResponseDoesNotHurtOthers() async throws {
            let t = try TestServer.start()
            let steady = try t.client()
            // Mid-request: half a head, then gone.
            do {
                let c = try t.client()
                try await c.send("GET /hello HTTP/1.1\r\nHo")
            }
            // Mid-response: an 8 MiB answer, a little of it read, then gone.
            do {
                let c = try t.client()
                try await c.request("GET", "/big")
                try await c.readSome()
                var lingerOff = linger(l_onoff: 1, l_linger: 0) // reset, like a crashed client
                setsockopt(c.fd, SOL_SOCKET, SO_LINGER, &lingerOff, socklen_t(MemoryLayout<linger>.size))
            }
            // Mid-response, while the handler still works.
            do {
                let c = try t.client()
                try await c.request("GET", "/delay/30")
            }
            try await steady.request("GET", "/echo/still-here")
            #expect(try await steady.readResponse().text == "still-here")
            #expect(await waitUntil { t.server.openConnections == 1 })
            await t.stop()
            #expect(t.server.openConnections == 0)
        }

        @Test func clientThatStopsReadingIsCutAfterTheWriteTimeout() async throws {
            let t = try TestServer.start { $0.writeTimeoutSeconds = 0.3 }
            let c = try t.client()
            try await c.request("GET", "/big") // 8 MiB, never read: the socket buffers fill up
            #expect(await waitUntil { t.server.openConnections == 1 })
            #expect(await waitUntil { t.server.openConnections == 0 })
            #expect(t.log.value.isEmpty) // never fully written, so never logged
            await t.stop()
        }

        @Test func connectionsPastTheLimitGet503WhenNoneIsReclaimable() async throws {
            let t = try TestServer.start { $0.maxConnections = 2 }
            let a = try t.client()
            let b = try t.client()
            try await a.request("GET", "/hello")
            #expect(try await a.readResponse().status == 200)
            try await a.request("GET", "/gate") // in flight
            try await b.send("GET /echo/b HTTP/1.1\r\nHo") // partly received
            #expect(await waitUntil { t.gate.arrived == 1 && t.server.reclaimableConnections == 0 })
            let third = try t.client()
            let r = try await third.readResponse()
            #expect(r.status == 503)
            #expect(r.header("Connection") == "close")
            #expect(r.header("Content-Type") == "application/problem+json")
            #expect(r.header("Retry-After") == "1")
            #expect(await third.isClosedByPeer())
            // The first two still work.
            t.gate.open()
            #expect(try await a.readResponse().text == "through the gate")
            try await b.send("st: a\r\n\r\n")
            #expect(try await b.readResponse().text == "b")
            try await a.request("GET", "/echo/a")
            #expect(try await a.readResponse().text == "a")
            #expect(t.server.openConnections == 2)
            #expect(t.server.rejectedConnections == 1)
            #expect(t.server.totalAcceptedConnections == 3)
            await t.stop()
        }

        @Test func twoThousandRequestsOverFiftyConnections() async throws {
            let t = try TestServer.start()
            let answered = try await { () async throws -> Int in
                let clients = try (0..<50).map { _ in try t.client() }
                var answered = 0
                for round in 0..<40 {
                    for (i, c) in clients.enumerated() {
                        // Every tenth round is pipelined in pairs with a deferred answer.
                        if round % 10 == 9 {
                            try await c.send("GET /delay/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/\(round)-\(i) HTTP/1.1\r\nHost: a\r\n\r\n")
                        } else {
                            try await c.request("GET", "/echo/\(round)-\(i)")
                        }
                    }
                    for (i, c) in clients.enumerated() {
                        if round % 10 == 9 {
                            guard try await c.readResponse().text == "delayed 1" else { return answered }
                        }
                        let r = try await c.readResponse()
                        guard r.status == 200, r.text == "\(round)-\(i)" else { return answered }
                        answered += 1
                    }
                }
                return answered
            }()
            #expect(answered == 2000)
            #expect(t.server.totalAcceptedConnections == 50)
            // The kernel spread the connections over the four loops' listening sockets, and each
            // loop served its own: several loops answered, in order, pipelined pairs included.
            #expect(t.server.acceptedPerLoop.count == 4)
            #expect(t.server.acceptedPerLoop.filter { $0 > 0 }.count >= 2)
            await t.stop()
        }
    }
}
