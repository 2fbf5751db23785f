import TestSupport
import Testing
import Transport
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

        /// The governance over real sockets, fed made-up readings (a test cannot count on a
        /// spare processor): loop 0 saturated with a processor idle takes on loop 1, and the
        /// connections packed on loop 0 are evened out through complete `Connection: close`
        /// responses, their reconnections placed on loop 1.
        @Test func aSaturatedLoopTakesOnAnotherAndHandsItHalfTheConnections() async throws {
            // 0: quiet; 1: loop 0 saturated, one processor idle; 2: both loops busy (no more evening out).
            let phase = Locked(0)
            let sources = LoopGovernance.Sources(
                loopCPU: { index in
                    let now = SystemFacts.monotonicNanoseconds()
                    switch phase.value {
                    case 0: return 0
                    case 1: return index == 0 ? now : 0
                    default: return now
                    }
                },
                idle: { SystemFacts.monotonicNanoseconds() },
                now: { SystemFacts.monotonicNanoseconds() })
            var configuration = HTTPServerConfiguration()
            configuration.host = "127.0.0.1"
            configuration.port = 0
            configuration.connectionQueueCount = 2
            configuration.lingerTimeoutSeconds = 0.5
            let router = TestServer.router(gate: Gate())
            let server = HTTPServer(configuration: configuration, responder: { router.respond(to: $0) },
                                    governanceSources: sources)
            let port = try server.start()
            var clients: [RawHTTPClient] = []
            for _ in 0..<10 { clients.append(try RawHTTPClient(port: port, timeout: 10)) }
            for c in clients { try await c.request("GET", "/hello") }
            for c in clients { #expect(try await c.readResponse().status == 200) }
            #expect(server.openConnectionsPerLoop == [10, 0])

            phase.set(1)
            #expect(await waitUntil { server.activeEventLoops == 2 })
            // Every connection asks again until five (at least) were answered with a close: loop 0
            // stays saturated and loop 1 idle in the readings, so the governor keeps evening out
            // (a quota holds for one window) until the counts are even.
            var closed = 0
            var round = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while closed < 5 && ContinuousClock.now < deadline {
                // A round once a quota is out (each holds for one governor window).
                _ = await waitUntil { server.pendingRebalancing > 0 }
                for (i, c) in clients.enumerated() {
                    try await c.request("GET", "/echo/\(round)-\(i)")
                    let answer = try await c.readResponse()
                    #expect(answer.status == 200 && answer.text == "\(round)-\(i)")
                    if answer.header("Connection") == "close" {
                        #expect(await c.isClosedByPeer())
                        clients[i] = try RawHTTPClient(port: port, timeout: 10)
                        closed += 1
                    }
                }
                round += 1
            }
            // Both loops busy from here: the governor's next window cancels what is left of the quotas.
            phase.set(2)
            #expect(await waitUntil { server.pendingRebalancing == 0 })
            #expect(closed >= 5)
            #expect(server.rebalancedConnections == closed)
            for (i, c) in clients.enumerated() {
                try await c.request("GET", "/echo/again-\(i)")
                #expect(try await c.readResponse().text == "again-\(i)")
            }
            // The reconnections went to loop 1, the emptier active loop.
            #expect(await waitUntil { server.openConnectionsPerLoop.reduce(0, +) == 10 })
            #expect(server.openConnectionsPerLoop[1] >= 5)
            await server.shutdown()
        }

        /// The closing itself, on one loop (so no governance), so that nothing but the test sets
        /// the quota.
        @Test func evenedOutConnectionsCloseAfterACompleteResponse() async throws {
            let t = try TestServer.start { $0.connectionQueueCount = 1 }
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
