import Cache
import HTTP1
import Web
import Synchronization
import Testing
import TestSupport
@testable import Almanac

@Suite struct OperationsRoutesTests {
    private static let token = "admin-token-0123456789"

    private func router(token: String? = OperationsRoutesTests.token, cache: FakeCache = FakeCache(),
                        draining: @escaping @Sendable () -> Bool = { false }, logger: Logger? = nil) -> Router {
        AlmanacApp.makeRouter(operations: .init(isDraining: draining, metrics: MetricsRegistry(), adminToken: token,
                                                cache: cache, logger: logger))
    }

    private func bearer(_ value: String) -> HTTPHeaders { ["Authorization": value] }

    @Test func healthAndReadiness() async {
        let box = Locked(false) // flipped to simulate shutdown
        let r = router(draining: { box.value })
        let health = await respond(r, "GET", "/healthz")
        #expect(health.status == .ok && health.text == #"{"status":"ok"}"#)
        #expect(health.headers["Cache-Control"] == "no-store")
        #expect(health.headers["Content-Type"] == "application/json; charset=utf-8")
        let ready = await respond(r, "GET", "/readyz")
        #expect(ready.status == .ok && ready.text == #"{"status":"ready"}"#)

        box.set(true)
        let notReady = await respond(r, "GET", "/readyz")
        #expect(notReady.status == .serviceUnavailable)
        #expect(notReady.headers["Content-Type"] == "application/problem+json")
        #expect(notReady.headers["Cache-Control"] == "no-store")
        #expect(notReady.jsonObject?["type"] as? String == ProblemTypes.almanac.type(of: "draining"))
        #expect((await respond(r, "GET", "/healthz")).status == .ok, "liveness is unaffected by draining")
    }

    @Test func adminRoutesDoNotExistWithoutAToken() async {
        let r = router(token: nil)
        for (method, path) in [("GET", "/admin/cache"), ("DELETE", "/admin/cache"), ("DELETE", "/admin/cache/rates")] {
            let response = await respond(r, method, path, headers: bearer("Bearer anything"))
            #expect(response.status == .notFound, "\(method) \(path)")
        }
        #expect(!r.routes.contains { $0.pattern.hasPrefix("/admin") })
    }

    @Test func adminNeedsTheRightBearerToken() async {
        let cache = FakeCache(["rates": CacheStats()])
        let r = router(cache: cache)
        let cases: [(HTTPHeaders, String)] = [
            (HTTPHeaders(), #"Bearer realm="almanac-admin""#),
            (bearer("Bearer wrong"), #"Bearer realm="almanac-admin", error="invalid_token""#),
            (bearer("Bearer \(Self.token)x"), #"Bearer realm="almanac-admin", error="invalid_token""#),
            (bearer("Bearer \(Self.token.dropLast())"), #"Bearer realm="almanac-admin", error="invalid_token""#),
            (bearer("Basic \(Self.token)"), #"Bearer realm="almanac-admin""#),
            (bearer(Self.token), #"Bearer realm="almanac-admin""#),
        ]
        for (headers, challenge) in cases {
            for (method, path) in [("GET", "/admin/cache"), ("DELETE", "/admin/cache"), ("DELETE", "/admin/cache/rates")] {
                let response = await respond(r, method, path, headers: headers)
                #expect(response.status == .unauthorized, "\(method) \(path) \(headers)")
                #expect(response.headers["WWW-Authenticate"] == challenge)
                #expect(response.headers["Cache-Control"] == "no-store")
                #expect(!response.text.contains(Self.token))
            }
        }
        #expect(cache.purged.isEmpty, "nothing is purged without authorization")
    }

    @Test func adminStatsAndPurges() async throws {
        var rates = CacheStats()
        rates.entries = 2; rates.bytes = 300; rates.hits = 5
        var books = CacheStats()
        books.entries = 1
        let cache = FakeCache(["rates": rates, "books": books])
        let r = router(cache: cache)
        let auth = bearer("bearer  \(Self.token) ")

        let stats = await respond(r, "GET", "/admin/cache", headers: auth)
        #expect(stats.status == .ok)
        #expect(stats.headers["Cache-Control"] == "no-store")
        let namespaces = try #require(stats.jsonObject?["namespaces"] as? [String: [String: Any]])
        #expect(namespaces["rates"]?["entries"] as? Int == 2)
        #expect(namespaces["rates"]?["hits"] as? Int == 5)
        #expect(namespaces["books"]?["entries"] as? Int == 1)

        let one = await respond(r, "DELETE", "/admin/cache/rates", headers: auth)
        #expect(one.status == .ok && one.text == #"{"purged":["rates"]}"#)
        #expect(cache.stats()["rates"]?.entries == 0 && cache.stats()["books"]?.entries == 1)

        let covers = await respond(r, "DELETE", "/admin/cache/covers", headers: auth)
        #expect(covers.status == .ok, "a known namespace nobody used yet is already empty")

        let unknown = await respond(r, "DELETE", "/admin/cache/sessions", headers: auth)
        #expect(unknown.status == .notFound)
        #expect(unknown.headers["Content-Type"] == "application/problem+json")

        let all = await respond(r, "DELETE", "/admin/cache", headers: auth)
        #expect(all.status == .ok)
        #expect(cache.stats()["books"]?.entries == 0)
        #expect(cache.purged == ["rates", "covers", "*"])
    }

    @Test func constantTimeComparisonIsCorrect() {
        #expect(BearerToken.matches("abc123", expected: "abc123"))
        #expect(!BearerToken.matches("abc124", expected: "abc123"))
        #expect(!BearerToken.matches("abc12", expected: "abc123"))
        #expect(!BearerToken.matches("abc1234", expected: "abc123"))
        #expect(!BearerToken.matches("", expected: "abc123"))
        #expect(!BearerToken.matches("abc123\u{0}", expected: "abc123"))
        #expect(BearerToken.credentials(from: "Bearer x y") == "x y")
        #expect(BearerToken.credentials(from: "Bearer ") == nil)
    }

    @Test func unknownRoutesAreProblemJSON() async {
        let response = await respond(router(), "GET", "/nope")
        #expect(response.status == .notFound)
        #expect(response.jsonObject?["type"] as? String == ProblemTypes.almanac.type(of: "not-found"))
    }
}
