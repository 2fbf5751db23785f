import TestSupport
import Dispatch
import Testing
@testable import HTTP1

extension EndToEnd {
    /// At `maxConnections`: connections waiting for a request (idle keep-alive, or silent since
    /// accept) make room for newcomers, oldest first; busy ones never; 503 only when every
    /// slot is busy.
    @Suite struct ConnectionLimit {
        static let limit = 20

        /// `count` keep-alive clients answered once each, one after the other (so the first is
        /// the one that has been idle longest), all listed as reclaimable by the server.
        private func idleClients(_ t: TestServer, _ count: Int) async throws -> [RawHTTPClient] {
            var clients: [RawHTTPClient] = []
            for i in 0..<count {
                let c = try t.client()
                try await c.request("GET", "/echo/held-\(i)")
                #expect(try await c.readResponse().text == "held-\(i)")
                clients.append(c)
            }
            return clients
        }

        /// A newcomer's request, answered within `seconds` (its receive timeout).
        private func newcomerGets(_ t: TestServer, _ path: String, within seconds: Double = 1) async throws
            -> (client: RawHTTPClient, status: Int, elapsed: Double) {
            let started = DispatchTime.now().uptimeNanoseconds
            let c = try t.client(timeout: seconds)
            try await c.request("GET", path)
            let response = try await c.readResponse()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            return (c, response.status, elapsed)
        }

        /// The server closed `c` with a FIN and sent nothing: no reset, no stray response.
        private func closedCleanly(_ c: RawHTTPClient) async -> Bool {
            do {
                try await c.readSome()
                return c.unread == 0
            } catch {
                return false
            }
        }

        @Test func idleKeepAlivesMakeRoomOldestFirstAcrossQueues() async throws {
            let t = try TestServer.start { $0.maxConnections = Self.limit; $0.connectionQueueCount = 3 }
            let held = try await idleClients(t, Self.limit)
            #expect(await waitUntil { t.server.reclaimableConnections == Self.limit })
            var newcomers: [RawHTTPClient] = []
            for i in 0..<3 {
                let (c, status, elapsed) = try await newcomerGets(t, "/hello")
                #expect(status == 200)
                #expect(elapsed < 5, "served at once, not after a timeout (idle: 60 s)") // slack for a busy CPU
                #expect(await closedCleanly(held[i]), "the oldest idle connection (#\(i)) is the one closed")
                newcomers.append(c)
            }
            // Every other held connection is still open and usable.
            for (i, c) in held.enumerated().dropFirst(3) {
                try await c.request("GET", "/echo/again-\(i)")
                #expect(try await c.readResponse().text == "again-\(i)")
            }
            #expect(t.server.reclaimedConnections == ReclaimedConnections(idle: 3, silent: 0))
            #expect(t.server.rejectedConnections == 0)
            #expect(await waitUntil { t.server.openConnections == Self.limit })
            // One warning for the burst (at most one per 10 s), like nginx's "reusing connections".
            let warnings = t.errors.value.filter { $0.contains("reusing connections") }
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("maxConnections 20") == true)
            withExtendedLifetime(newcomers) {} // their slots stayed held until here
            await t.stop()
        }

        @Test func silentConnectionsMakeRoom() async throws {
            let t = try TestServer.start { $0.maxConnections = Self.limit; $0.connectionQueueCount = 2 }
            var held: [RawHTTPClient] = []
            for _ in 0..<Self.limit {
                held.append(try t.client())
                // Accepted in this order: the first is the oldest.
                let count = held.count
                #expect(await waitUntil { t.server.reclaimableConnections == count })
            }
            var newcomers: [RawHTTPClient] = [] // kept open: each holds its slot
            for i in 0..<2 {
                let (c, status, elapsed) = try await newcomerGets(t, "/echo/newcomer")
                #expect(status == 200)
                #expect(elapsed < 5, "served at once, not after a timeout (idle: 60 s)") // slack for a busy CPU
                #expect(await closedCleanly(held[i]))
                newcomers.append(c)
            }
            #expect(t.server.reclaimedConnections == ReclaimedConnections(idle: 0, silent: 2))
            #expect(t.server.rejectedConnections == 0)
            // The silent ones left can still send their first request.
            try await held[2].request("GET", "/echo/late")
            #expect(try await held[2].readResponse().text == "late")
            withExtendedLifetime(newcomers) {} // their slots stayed held until here
            await t.stop()
        }

        @Test func busyConnectionsAreNeverCut() async throws {
            let t = try TestServer.start { $0.maxConnections = Self.limit; $0.writeTimeoutSeconds = 20 }
            // The three oldest connections are busy in each way that must never be reclaimed.
            let inFlight = try t.client()
            try await inFlight.request("GET", "/gate") // a slow response the handler still works on
            #expect(await waitUntil { t.gate.arrived == 1 })
            let partial = try t.client()
            try await partial.send("GET /echo/partial HTTP/1.1\r\nHo") // a partly received request
            let writing = try t.client()
            try await writing.request("GET", "/big") // 8 MiB nobody reads yet: a response being written
            let idle = try await idleClients(t, Self.limit - 3)
            #expect(await waitUntil { t.server.reclaimableConnections == Self.limit - 3 })

            // More newcomers than idle connections: each one is served, the idle ones (and
            // then the earlier newcomers, idle in turn) make room, never the busy three.
            var newcomers: [RawHTTPClient] = []
            for _ in 0..<(Self.limit - 3 + 5) {
                let (c, status, elapsed) = try await newcomerGets(t, "/hello")
                #expect(status == 200)
                #expect(elapsed < 5, "served at once, not after a timeout (idle: 60 s)") // slack for a busy CPU
                newcomers.append(c)
            }
            for c in idle { #expect(await closedCleanly(c)) }
            #expect(t.server.reclaimedConnections.idle == Self.limit - 3 + 5)

            // The busy three finish undisturbed.
            t.gate.open()
            let slow = try await inFlight.readResponse()
            #expect(slow.status == 200)
            #expect(slow.text == "through the gate")
            try await partial.send("st: a\r\n\r\n")
            #expect(try await partial.readResponse().text == "partial")
            let big = try await writing.readResponse()
            #expect(big.status == 200)
            #expect(big.body.count == TestServer.bigBody.count)
            #expect(t.server.rejectedConnections == 0)
            withExtendedLifetime(newcomers) {} // their slots stayed held until here
            await t.stop()
        }

        @Test func aRequestArrivingJustBeforeTheReclaimIsServedNotCut() async throws {
            let t = try TestServer.start { $0.maxConnections = 3; $0.connectionQueueCount = 1 }
            let held = try await idleClients(t, 2) // [0] is the longest idle
            #expect(await waitUntil { t.server.reclaimableConnections == 2 })
            let spinner = try t.client()
            try await spinner.request("GET", "/spin/500") // holds the only connection queue
            #expect(await waitUntil { t.spins.value == 1 })
            // While the queue is held: the longest-idle client sends a request (its bytes wait
            // in the socket), then a newcomer arrives, so the reclaim is queued behind them.
            try await held[0].request("GET", "/echo/just-in-time")
            let newcomer = try t.client(timeout: 3)
            try await newcomer.request("GET", "/hello")
            #expect(try await held[0].readResponse().text == "just-in-time")
            #expect(try await newcomer.readResponse().status == 200)
            #expect(await closedCleanly(held[1]), "the next longest idle made room instead")
            #expect(try await spinner.readResponse().text == "spun")
            #expect(t.server.reclaimedConnections == ReclaimedConnections(idle: 1, silent: 0))
            await t.stop()
        }

        @Test func everySlotBusyStillAnswers503AndClosesWithoutCuttingAnyone() async throws {
            let t = try TestServer.start { $0.maxConnections = Self.limit }
            var busy: [RawHTTPClient] = []
            for _ in 0..<Self.limit {
                let c = try t.client()
                try await c.request("GET", "/gate")
                busy.append(c)
            }
            #expect(await waitUntil { t.gate.arrived == Self.limit && t.server.reclaimableConnections == 0 })
            let refused = try t.client()
            let r = try await refused.readResponse()
            #expect(r.status == 503)
            #expect(r.header("Connection") == "close")
            #expect(await refused.isClosedByPeer())
            #expect(t.server.rejectedConnections == 1)
            #expect(t.server.reclaimedConnections == ReclaimedConnections())
            t.gate.open()
            for c in busy { #expect(try await c.readResponse().text == "through the gate") }
            await t.stop()
        }
    }
}
