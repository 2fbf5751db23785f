import HTTP1
import Testing
@testable import Almanac

/// Which routes browsers on other origins may read is decided by each route's `isPublic`;
/// this keeps the production table honest: everything is public except what describes or
/// administers this instance. A new endpoint (history, say) registered without
/// `public: true` fails here instead of silently lacking CORS.
@Suite struct PublicRoutesTests {
    /// Routes for operators and orchestrators only: never CORS.
    static let operatorOnly: Set<String> = ["/healthz", "/readyz", "/metrics"]

    @Test func everyRouteButOperationsAndAdminIsPublic() {
        var config = AlmanacConfiguration()
        config.server.adminToken = "token-for-the-public-routes-test"
        let app = AlmanacApp(configuration: config, plugins: .standard, logSink: MemoryLogSink())
        let routes = app.router.routes
        #expect(routes.contains { $0.pattern.hasPrefix("/admin/") })
        #expect(routes.contains { $0.pattern == "/v1/rates" })
        for route in routes {
            let expected = !(route.pattern.hasPrefix("/admin/") || Self.operatorOnly.contains(route.pattern))
            #expect(route.isPublic == expected, "\(route.method) \(route.pattern)")
        }
    }
}
