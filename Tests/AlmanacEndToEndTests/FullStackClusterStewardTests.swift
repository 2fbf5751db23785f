import Foundation
import HTTPClientTestSupport
import TestSupport
import Testing
@testable import Almanac

extension FullStackTests.Binary {
    /// Two real almanac processes sharing one real `redis-server` (`cache.redis.url`) and one
    /// stub upstream (`Cluster`): Google Books answers 429 with `Retry-After: 30` to the first replica that
    /// asks; the other replica then skips it (the stub counts every request), and its
    /// `/admin/upstreams` shows the shared cooldown. Distinct ISBNs, so the shared cache layer
    /// cannot answer for the provider.
    @Test(.enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
    func a429SeenByOneReplicaMakesTheOtherSkipTheProvider() async throws {
        let isbns = FullStackTests.Steward.isbns(3)
        try await Cluster.run(size: 2, script: { stub in
            FullStackFixtures.scriptAll(stub)
            stub.route(FullStackFixtures.googlePath) { _ in
                StubResponse(status: 429, headers: [("Retry-After", "30")], body: Array(#"{"error":{"code":429}}"#.utf8))
            }
            stub.route(FullStackFixtures.openLibraryPath) { request in
                let isbn = String((request.query ?? "").split(separator: "&").first { $0.hasPrefix("bibkeys=ISBN:") }?
                    .dropFirst("bibkeys=ISBN:".count) ?? "")
                return .json(#"{"ISBN:\#(isbn)":{"title":"Stub \#(isbn)","authors":[{"name":"A"}]}}"#)
            }
        }) { cluster in
            let stub = cluster.stub
            #expect(try await cluster.get(0, "/v1/books/\(isbns[0])").status == 200)
            #expect(stub.requestCount(for: FullStackFixtures.googlePath) == 1, "replica one met the 429")
            #expect(try await cluster.get(1, "/v1/books/\(isbns[1])").status == 200)
            #expect(try await cluster.get(1, "/v1/books/\(isbns[2])").status == 200)
            #expect(stub.requestCount(for: FullStackFixtures.googlePath) == 1, "replica two skipped google-books")
            #expect(stub.requestCount(for: FullStackFixtures.openLibraryPath) == 3)
            let metrics = try await cluster.get(1, "/metrics").text
            #expect(metricValue(metrics, "almanac_upstream_skipped_total", ["provider": "google-books", "reason": "cooldown"]) == 2)
            let admin = try await cluster.admin(1, "GET", "/admin/upstreams")
            #expect(admin.text.contains(#""active":true"#) && admin.text.contains(#""scope":"cluster""#), "\(admin.text)")
            // The change was logged once, by the replica that met it.
            #expect(await waitUntil { cluster.stdout(0).contains("asked to stop") })
            #expect(!cluster.stdout(1).contains("asked to stop"))
        }
    }
}
