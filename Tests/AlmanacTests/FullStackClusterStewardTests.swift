import Foundation
import HTTPClientTestSupport
import TestSupport
import Testing
@testable import Almanac

extension FullStackTests.Binary {
    /// Two real almanac processes sharing one real `redis-server` (`cache.redis.url`) and one
    /// stub upstream: Google Books answers 429 with `Retry-After: 30` to the first replica that
    /// asks; the other replica then skips it (the stub counts every request), and its
    /// `/admin/upstreams` shows the shared cooldown. Distinct ISBNs, so the shared cache layer
    /// cannot answer for the provider.
    @Test(.enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
    func a429SeenByOneReplicaMakesTheOtherSkipTheProvider() async throws {
        let redis = try await RedisServerProcess.start()
        let stub = try StubUpstream()
        defer { stub.stop() }
        FullStackFixtures.scriptAll(stub)
        stub.route(FullStackFixtures.googlePath) { _ in
            StubResponse(status: 429, headers: [("Retry-After", "30")], body: Array(#"{"error":{"code":429}}"#.utf8))
        }
        stub.route(FullStackFixtures.openLibraryPath) { request in
            let isbn = String((request.query ?? "").split(separator: "&").first { $0.hasPrefix("bibkeys=ISBN:") }?
                .dropFirst("bibkeys=ISBN:".count) ?? "")
            return .json(#"{"ISBN:\#(isbn)":{"title":"Stub \#(isbn)","authors":[{"name":"A"}]}}"#)
        }
        let environment = [
            "ALMANAC_CACHE_REDIS_URL": redis.url,
            "ALMANAC_UPSTREAM_RETRIES": "0",
            "ALMANAC_SERVER_ADMIN_TOKEN": FullStack.adminToken,
            "ALMANAC_BOOKS_GOOGLE_BOOKS_BASE_URL": stub.baseURL,
            "ALMANAC_BOOKS_OPEN_LIBRARY_BASE_URL": stub.baseURL,
        ]
        let (one, onePort) = try await AlmanacBinary.serving(environment)
        defer { one.kill(); one.removeFiles() }
        let (two, twoPort) = try await AlmanacBinary.serving(environment)
        defer { two.kill(); two.removeFiles() }
        let isbns = FullStackTests.Steward.isbns(3)

        func get(_ port: Int, _ target: String, headers: [String] = []) async throws -> WireResponse {
            let client = try WireClient(port: port, timeout: 15)
            try await client.request("GET", target, extra: headers)
            return try await client.readResponse()
        }
        #expect(try await get(onePort, "/v1/books/\(isbns[0])").status == 200)
        #expect(stub.requestCount(for: FullStackFixtures.googlePath) == 1, "replica one met the 429")
        #expect(try await get(twoPort, "/v1/books/\(isbns[1])").status == 200)
        #expect(try await get(twoPort, "/v1/books/\(isbns[2])").status == 200)
        #expect(stub.requestCount(for: FullStackFixtures.googlePath) == 1, "replica two skipped google-books")
        #expect(stub.requestCount(for: FullStackFixtures.openLibraryPath) == 3)
        let metrics = try await get(twoPort, "/metrics").text
        #expect(metricValue(metrics, "almanac_upstream_skipped_total", ["provider": "google-books", "reason": "cooldown"]) == 2)
        let admin = try await get(twoPort, "/admin/upstreams", headers: ["Authorization: Bearer \(FullStack.adminToken)"])
        #expect(admin.text.contains(#""active":true"#) && admin.text.contains(#""scope":"cluster""#), "\(admin.text)")
        // The change was logged once, by the replica that met it.
        #expect(await waitUntil { one.stdout.contains("asked to stop") })
        #expect(!two.stdout.contains("asked to stop"))
        await redis.stop()
    }
}
