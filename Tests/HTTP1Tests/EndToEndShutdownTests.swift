import TestSupport
import Foundation
import Testing
@testable import HTTP1

extension EndToEnd {
    @Suite struct Shutdown {
        @Test func shutdownFinishesInFlightRequestsAndRefusesNewConnections() async throws {
            let t = try TestServer.start()
            let busy = try (0..<3).map { _ in try t.client() }
            for c in busy { try await c.request("GET", "/gate") }
            let idle = try t.client()
            try await idle.request("GET", "/hello")
            _ = try await idle.readResponse()
            #expect(await waitUntil { t.gate.arrived == 3 })
            #expect(!t.server.isDraining)

            let shutdown = Task { await t.server.shutdown() }
            #expect(await waitUntil { t.server.isDraining })
            // Idle connections are closed at once; new connections are refused.
            #expect(await idle.isClosedByPeer())
            #expect(await waitUntil { (try? RawHTTPClient(port: t.port)) == nil })
            #expect(t.server.openConnections == 3)

            t.gate.open()
            for c in busy {
                let r = try await c.readResponse()
                #expect(r.status == 200)
                #expect(r.text == "through the gate")
                #expect(r.header("Connection") == "close")
            }
            await shutdown.value
            #expect(t.server.openConnections == 0)
        }

        @Test func graceExpiryForceClosesStuckRequests() async throws {
            let t = try TestServer.start { $0.shutdownGraceSeconds = 0.2 }
            let c = try t.client()
            try await c.request("GET", "/gate")
            #expect(await waitUntil { t.gate.arrived == 1 })
            await t.server.shutdown() // returns although the handler never finishes
            #expect(t.server.openConnections == 0)
            #expect(await c.isClosedByPeer())
            t.gate.open()
        }

        @Test func shutdownWithNoConnectionsReturnsAndIsRepeatable() async throws {
            let t = try TestServer.start()
            await t.server.shutdown()
            await t.server.shutdown()
            #expect(t.server.isDraining)
        }
    }
}
