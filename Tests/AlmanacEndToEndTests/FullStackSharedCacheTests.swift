import Foundation
import HTTPClientTestSupport
import Testing
import TestSupport
@testable import Almanac

extension FullStackTests.Binary {
    /// The shared cache (L2) between real almanac processes and a real redis-server.
    @Suite(.enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
    struct SharedCache {
        static func get(_ port: Int, _ path: String, _ headers: [String] = []) async throws -> RawHTTPResponse {
            let client = try RawHTTPClient(port: port, timeout: 15)
            try await client.request("GET", path, extra: headers)
            return try await client.readResponse()
        }

        /// A second process (`Cluster`) answers a key the first one stored, from Redis: HIT with
        /// `detail=redis`, the same ETag and body, `If-None-Match` across processes, no second
        /// upstream request; `/readyz` and `/metrics` say Redis is up.
        @Test func aSecondProcessAnswersFromRedis() async throws {
            try await Cluster.run(size: 2, environment: ["ALMANAC_RATES_TTL_SECONDS": "300"]) { cluster in
                let stub = cluster.stub
                let miss = try await cluster.get(0, "/v1/rates")
                #expect(miss.status == 200)
                #expect(miss.header("X-Cache") == "MISS")
                let etag = try #require(miss.header("ETag"))
                #expect(stub.requestCount(for: FullStackFixtures.coinbasePath) == 1)

                let shared = try await cluster.get(1, "/v1/rates")
                #expect(shared.status == 200)
                #expect(shared.header("X-Cache") == "HIT")
                #expect(shared.header("Cache-Status") == "almanac; hit; detail=redis")
                #expect(shared.header("ETag") == etag)
                #expect(shared.body == miss.body)
                // Freshness and age from the stored times: the first answer's, less the seconds between.
                let firstLeft = try #require(miss.header("Cache-Control").flatMap { Int($0.dropFirst("public, max-age=".count)) })
                let sharedLeft = try #require(shared.header("Cache-Control").flatMap { Int($0.dropFirst("public, max-age=".count)) })
                #expect(firstLeft >= 270 && sharedLeft <= firstLeft && sharedLeft >= firstLeft - 3, "\(firstLeft) \(sharedLeft)")
                let age = try #require(shared.header("Age").flatMap { Int($0) })
                #expect(age <= 3 && firstLeft - sharedLeft <= age + 1, "Age \(age)")
                #expect(stub.requestCount(for: FullStackFixtures.coinbasePath) == 1, "no second upstream request")

                let again = try await cluster.get(1, "/v1/rates", headers: ["If-None-Match: \(etag)"])
                #expect(again.status == 304)
                #expect(again.header("X-Cache") == "HIT")
                #expect(again.header("Cache-Status")?.hasPrefix("almanac; hit; ttl=") == true, "now from this process's memory")

                let ready = try await cluster.get(1, "/readyz")
                #expect(ready.status == 200)
                #expect(String(decoding: ready.body, as: UTF8.self) == #"{"status":"ready","l2":"up"}"#)
                let metrics = String(decoding: try await cluster.get(1, "/metrics").body, as: UTF8.self)
                #expect(metrics.contains("\nalmanac_cache_l2_up 1\n"), "\(metrics)")
                #expect(metrics.contains("\nalmanac_cache_l2_hits_total 1\n"))
            }
        }

        /// Redis down at start: almanac serves anyway (memory and upstream), `/readyz` is 200
        /// with `"l2":"down"`; Redis started on that port later: `"l2":"up"`, and values are
        /// stored there again.
        @Test func servesWithoutRedisAndConnectsWhenItComes() async throws {
            let redis = try await RedisServerProcess.start(arguments: ["--requirepass", "pa55-w0rd-l2"])
            await redis.stop()
            let stub = try StubUpstream()
            defer { stub.stop() }
            FullStackFixtures.scriptAll(stub)
            let (app, port) = try await AlmanacBinary.serving(AlmanacBinary.stubEnvironment(stub.baseURL).merging([
                "ALMANAC_CACHE_REDIS_URL": "redis://:pa55-w0rd-l2@127.0.0.1:\(redis.port)",
                "ALMANAC_UPSTREAM_RETRIES": "0", "ALMANAC_LOG_LEVEL": "debug",
            ]) { _, given in given })
            defer { app.kill(); app.removeFiles() }

            let served = try await Self.get(port, "/v1/rates")
            #expect(served.status == 200)
            #expect(served.header("X-Cache") == "MISS")
            let down = try await Self.get(port, "/readyz")
            #expect(down.status == 200)
            #expect(String(decoding: down.body, as: UTF8.self) == #"{"status":"ready","l2":"down"}"#)
            #expect(String(decoding: try await Self.get(port, "/metrics").body, as: UTF8.self).contains("\nalmanac_cache_l2_up 0\n"))

            try await redis.launch()
            defer { Task { await redis.stop() } }
            #expect(await waitUntil(timeout: 20) {
                guard let ready = try? await Self.get(port, "/readyz") else { return false }
                return String(decoding: ready.body, as: UTF8.self) == #"{"status":"ready","l2":"up"}"#
            }, "l2 up once Redis is there")
            // Connected, the subscription's start is a gap: the rates entry is revalidated
            // through Redis on the next read, which stores it there.
            #expect(await waitUntil {
                guard (try? await Self.get(port, "/v1/rates"))?.status == 200,
                      let metrics = try? await Self.get(port, "/metrics") else { return false }
                let text = String(decoding: metrics.body, as: UTF8.self)
                return text.contains("\nalmanac_cache_l2_stores_total ") && !text.contains("\nalmanac_cache_l2_stores_total 0\n")
            }, "the shared cache is used again")
            #expect(!app.stdout.contains("pa55-w0rd-l2") && !app.stderr.contains("pa55-w0rd-l2"), "the password is never logged")
        }
    }
}
