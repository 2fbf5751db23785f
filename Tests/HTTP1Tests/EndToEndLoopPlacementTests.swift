import TestSupport
import Testing
@testable import HTTP1

extension EndToEnd {
    /// `LoopPlacement.adaptive`, the server's default, over real sockets: connections the four
    /// loops' listening sockets accept are packed onto the one active loop, a loop asked to even
    /// out closes connections only with a complete response, and drain reaches them all.
    @Suite struct LoopPlacementTests {
        static func start() throws -> TestServer {
            try TestServer.start { $0.loopPlacement = .adaptive }
        }

        @Test func lightLoadLivesOnOneLoopWhicheverSocketAcceptedIt() async throws {
            let t = try Self.start()
            #expect(t.server.activeEventLoops == 1)
            #expect(t.server.eventLoopCount == 4)
            var clients: [RawHTTPClient] = []
            for _ in 0..<24 { clients.append(try t.client()) }
            for round in 0..<3 {
                for (i, c) in clients.enumerated() {
                    // Pipelined pairs too: the loop a connection was handed to answers in order.
                    try await c.send(RawHTTPClient.requestText("GET", "/echo/\(round)-\(i)")
                        + RawHTTPClient.requestText("GET", "/delay/1"))
                }
                for (i, c) in clients.enumerated() {
                    let first = try await c.readResponse()
                    #expect(first.status == 200 && first.text == "\(round)-\(i)")
                    #expect(try await c.readResponse().text == "delayed 1")
                }
            }
            #expect(t.server.totalAcceptedConnections == 24)
            // Several listening sockets accepted (the kernel's hash), one loop serves them all.
            #expect(t.server.acceptedPerLoop.filter { $0 > 0 }.count >= 2)
            #expect(t.server.openConnectionsPerLoop == [24, 0, 0, 0])
            for c in clients { c.close() }
            #expect(await waitUntil { t.server.openConnectionsPerLoop == [0, 0, 0, 0] })
            await t.stop()
        }

        @Test func evenedOutConnectionsCloseAfterACompleteResponse() async throws {
            let t = try Self.start()
            let first = try t.client()
            let second = try t.client()
            try await first.request("GET", "/hello")
            try await second.request("GET", "/hello")
            _ = try await first.readResponse()
            _ = try await second.readResponse()
            t.server.requestRebalancing(loop: 0, count: 1)
            try await first.request("GET", "/echo/last")
            let last = try await first.readResponse()
            #expect(last.status == 200 && last.text == "last")
            #expect(last.header("Connection") == "close")
            #expect(await first.isClosedByPeer())
            #expect(t.server.rebalancedConnections == 1)
            // The quota is spent: the other connection keeps going.
            try await second.request("GET", "/echo/on")
            let on = try await second.readResponse()
            #expect(on.text == "on" && on.header("Connection") == nil)
            #expect(await waitUntil { t.server.openConnections == 1 })
            await t.stop()
        }

        @Test func drainReachesConnectionsHandedToAnotherLoop() async throws {
            let t = try Self.start()
            var clients: [RawHTTPClient] = []
            for _ in 0..<12 { clients.append(try t.client()) }
            for c in clients { try await c.request("GET", "/hello") }
            for c in clients { #expect(try await c.readResponse().status == 200) }
            // One request in flight while the server drains: answered, with `Connection: close`.
            try await clients[0].request("GET", "/delay/300")
            #expect(await waitUntil { t.server.openConnectionsPerLoop[0] == 12 })
            await t.server.shutdown()
            let late = try await clients[0].readResponse()
            #expect(late.text == "delayed 300" && late.header("Connection") == "close")
            for c in clients.dropFirst() { #expect(await c.isClosedByPeer()) }
            #expect(t.server.openConnections == 0)
        }
    }
}
