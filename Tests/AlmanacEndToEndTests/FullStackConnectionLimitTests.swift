import Testing
import TestSupport
@testable import Almanac

extension FullStackTests {
    /// `server.maxConnections` through the real app: idle keep-alives make room for a newcomer,
    /// counted in `/metrics` and reported by one warn line.
    @Suite struct ConnectionLimit {
        @Test func idleConnectionsMakeRoomAndAreCountedAndLogged() async throws {
            try await FullStack.run(configure: { $0.server.http.maxConnections = 5 }) { s in
                var held: [RawHTTPClient] = []
                for _ in 0..<5 {
                    let c = try s.connect()
                    try await c.request("GET", "/healthz")
                    #expect(try await c.readResponse().status == 200)
                    held.append(c)
                }
                let r = try await s.get("/metrics") // a sixth connection at a limit of five
                #expect(r.status == 200)
                #expect(metricValue(r.text, "almanac_connections_reclaimed_total", ["state": "idle"]) == 1)
                #expect(metricValue(r.text, "almanac_connections_reclaimed_total", ["state": "silent"]) == 0)
                #expect(await held[0].isClosedByPeer(within: 5), "the oldest idle connection made room")
                let warnings = s.logs.lines.filter { $0.contains("reusing connections") }
                #expect(warnings.count == 1)
                #expect(warnings.first?.contains(#""level":"warn""#) == true, "\(warnings)")
                withExtendedLifetime(held) {}
            }
        }
    }
}
