import Cache
import Foundation
import HTTPClientTestSupport
import Redis
import Testing
import TestSupport
@testable import Almanac

extension FullStackTests.Binary {
    /// What is in Redis is not trusted: real almanac processes, a real `redis-server` whose
    /// values a test rewrites as an attacker with access to Redis would (in place, so the
    /// envelope stays well formed wherever it can), and a stub upstream. Each test is one
    /// reproduction: before the checks, each served what Redis held.
    @Suite(.enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
    struct RedisIntegrity {
        static let ratesKey = "almanac:c1:rates:table"

        /// A client of the cluster's Redis, for the test's own reads and writes.
        static func redis(_ cluster: Cluster) throws -> RedisClient {
            RedisClient(configuration: RedisConfiguration(url: try RedisURL(parsing: cluster.redis.url), timeoutMilliseconds: 5_000))
        }

        /// The envelope bytes at `key`, changed by `change`, written back (for ten minutes).
        static func rewrite(_ redis: RedisClient, _ key: String, _ change: (inout [UInt8]) throws -> Void) async throws {
            var bytes = try #require(try await redis.get(key), "nothing stored at \(key)")
            try change(&bytes)
            try await redis.set(key, bytes, expireMilliseconds: 600_000)
        }

        /// Rewrites the envelope stored at `key` field by field, as an attacker who knows the
        /// format would: the result is a well-formed envelope carrying the changed times.
        static func rewriteEnvelope(_ redis: RedisClient, _ key: String, _ change: (inout SharedEnvelope) -> Void) async throws {
            try await rewrite(redis, key) { bytes in
                var envelope = try #require(SharedEnvelope(decoding: bytes), "not an envelope at \(key)")
                change(&envelope)
                bytes = try #require(envelope.encoded, "the changed envelope cannot be written")
            }
        }

        static func rejected(_ cluster: Cluster, _ replica: Int, _ namespace: String, _ reason: String) async throws -> Double? {
            let metrics = try await cluster.get(replica, "/metrics").text
            return metricValue(metrics, "almanac_cache_l2_rejected_total", ["namespace": namespace, "reason": reason])
        }

        static func maxAge(_ response: RawHTTPResponse) -> Int? {
            response.header("Cache-Control").flatMap { Int($0.dropFirst("public, max-age=".count)) }
        }

        /// A validator whose bytes would add `Set-Cookie` and `Location` lines to every hit's
        /// head if copied into `ETag`; written over the real one, same length, so the envelope's
        /// lengths still add up.
        @Test func anInjectedValidatorNeverBecomesAHeader() async throws {
            try await Cluster.run(size: 2) { cluster in
                let first = try await cluster.get(0, "/v1/rates")
                #expect(first.status == 200)
                let etag = try #require(first.header("ETag"))
                let validator = Array(etag.utf8.dropFirst().prefix { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "-") })
                let redis = try Self.redis(cluster)
                let injection = Array("x\"\r\nSet-Cookie: session=stolen\r\nLocation: http://evil.example/".utf8)
                try await Self.rewrite(redis, Self.ratesKey) { bytes in
                    let start = try #require(bytes.firstRange(of: validator)?.lowerBound, "validator not in the envelope")
                    let padded = Array((injection + [UInt8](repeating: UInt8(ascii: "x"), count: validator.count)).prefix(validator.count))
                    bytes.replaceSubrange(start..<start + validator.count, with: padded)
                }
                let served = try await cluster.get(1, "/v1/rates")
                #expect(served.status == 200)
                #expect(served.header("Set-Cookie") == nil && served.header("Location") == nil, "\(served.headers)")
                #expect(served.header("X-Cache") == "MISS", "loaded again, not taken from Redis")
                // The reload's tag: a genuine validator (16 hex digits; the stubs stamp their
                // answers with the current second, so a reload in a later second has another
                // one) and the same representation (the part after `-`).
                let servedTag = try #require(served.header("ETag"))
                let parts = servedTag.utf8.dropFirst().dropLast().split(separator: UInt8(ascii: "-")).map(Array.init)
                #expect(servedTag.utf8.first == UInt8(ascii: "\"") && servedTag.utf8.last == UInt8(ascii: "\""), "\(servedTag)")
                #expect(parts.count == 2 && parts[0].count == 16
                        && parts[0].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, "\(servedTag)")
                #expect(parts.last == Array(etag.utf8.dropFirst().dropLast().split(separator: UInt8(ascii: "-")).last ?? []),
                        "\(servedTag) against \(etag)")
                #expect(try await Self.rejected(cluster, 1, "rates", "envelope") == 1)
                #expect(await waitUntil { cluster.stdout(1).contains("value in Redis refused") && cluster.stdout(1).contains("\"reason\":\"envelope\"") },
                        "one warn line names the reason")
                // The value was replaced by the reload: the next replica reads a good one.
                let stored = try #require(try await redis.get(Self.ratesKey))
                #expect(stored.firstRange(of: Array("Set-Cookie".utf8)) == nil)
            }
        }

        /// Book B's record copied under book A's key is not served for A.
        @Test func aBookStoredUnderAnotherISBNIsNotServedForIt() async throws {
            let isbns = FullStackTests.Steward.isbns(2, from: 100_000_500)
            try await Cluster.run(size: 2, environment: ["ALMANAC_BOOKS_PROVIDERS": "open-library"], script: { stub in
                FullStackFixtures.scriptAll(stub)
                stub.route(FullStackFixtures.openLibraryPath) { request in
                    let isbn = String((request.query ?? "").split(separator: "&").first { $0.hasPrefix("bibkeys=ISBN:") }?
                        .dropFirst("bibkeys=ISBN:".count) ?? "")
                    return .json(#"{"ISBN:\#(isbn)":{"title":"Stub \#(isbn)","authors":[{"name":"A"}]}}"#)
                }
            }) { cluster in
                #expect(try await cluster.get(0, "/v1/books/\(isbns[0])").status == 200)
                #expect(try await cluster.get(0, "/v1/books/\(isbns[1])").status == 200)
                let redis = try Self.redis(cluster)
                let bookB = try #require(try await redis.get("almanac:c1:books:\(isbns[1])"))
                try await redis.set("almanac:c1:books:\(isbns[0])", bookB, expireMilliseconds: 600_000)
                let served = try await cluster.get(1, "/v1/books/\(isbns[0])")
                #expect(served.status == 200)
                #expect(served.text.contains("Stub \(isbns[0])") && !served.text.contains("Stub \(isbns[1])"), "\(served.text)")
                #expect(served.header("X-Cache") == "MISS")
                #expect(try await Self.rejected(cluster, 1, "books", "key") == 1)
            }
        }

        /// A rates entry claiming a year of freshness (`rates.ttlSeconds` is 60) is not served.
        @Test func aRatesEntryClaimingAYearIsNotServed() async throws {
            try await Cluster.run(size: 2, environment: ["ALMANAC_RATES_TTL_SECONDS": "60"]) { cluster in
                #expect(try await cluster.get(0, "/v1/rates").status == 200)
                let redis = try Self.redis(cluster)
                try await Self.rewriteEnvelope(redis, Self.ratesKey) { envelope in
                    let year = envelope.storedAtMilliseconds + 365 * 86_400_000
                    envelope.expiresAtMilliseconds = year
                    envelope.staleUntilMilliseconds = year
                }
                let served = try await cluster.get(1, "/v1/rates")
                #expect(served.status == 200)
                let maxAge = try #require(Self.maxAge(served))
                #expect(maxAge <= 60, "max-age \(maxAge)")
                #expect(try await Self.rejected(cluster, 1, "rates", "expiry") == 1)
            }
        }

        /// A stored-at time of INT64_MIN does not give an absurd `Age`.
        @Test func aStoredAtOfInt64MinIsNotServed() async throws {
            try await Cluster.run(size: 2) { cluster in
                #expect(try await cluster.get(0, "/v1/rates").status == 200)
                let redis = try Self.redis(cluster)
                try await Self.rewriteEnvelope(redis, Self.ratesKey) { $0.storedAtMilliseconds = Int64.min }
                let served = try await cluster.get(1, "/v1/rates")
                #expect(served.status == 200)
                let age = served.header("Age").flatMap { Int($0) } ?? 0
                #expect(age <= 60, "Age \(age)")
                #expect(try await Self.rejected(cluster, 1, "rates", "expiry") == 1)
            }
        }

        /// A provider's steward hash holding `tk` = -1e6 (or -1e308) neither blocks the provider
        /// nor gives a Retry-After past the cap, nor hides it from `/admin/upstreams`.
        @Test(arguments: ["-1000000", "-1e308"]) func aStewardHashCannotBlockAProvider(tokens: String) async throws {
            try await Cluster.run(size: 1, environment: ["ALMANAC_RATES_PROVIDERS": "coinbase",
                                                         "ALMANAC_RATES_COINBASE_MAX_REQUESTS_PER_SECOND": "5"]) { cluster in
                let redis = try Self.redis(cluster)
                _ = try await redis.eval("return redis.call('HSET', KEYS[1], 'tk', ARGV[1])",
                                         keys: ["almanac:steward:coinbase"], arguments: [tokens])
                // Read back, the debt is at most what queued requests may reserve (`upstream.maxQueueMs`
                // of refill, 0.25 s at 5/s): the first request may be told to come back in well under a
                // second, never a day, and the provider answers again at once after that.
                let first = try await cluster.get(0, "/v1/rates")
                if first.status != 200 {
                    #expect(first.status == 503)
                    let retryAfter = try #require(first.header("Retry-After").flatMap { Int($0) })
                    #expect(retryAfter <= 1, "Retry-After \(retryAfter)")
                }
                #expect(await waitUntil(timeout: 10) { (try? await cluster.get(0, "/v1/rates"))?.status == 200 },
                        "the provider is asked again")
                #expect(cluster.stub.requestCount(for: FullStackFixtures.coinbasePath) == 1)
                let admin = try await cluster.admin(0, "GET", "/admin/upstreams")
                #expect(admin.text.contains(#""coinbase""#), "\(admin.text)")
            }
        }

        /// A replica that died holding a key's fill lock delays the others no longer than the
        /// request deadline: they load by themselves at half of it.
        @Test func aDeadReplicasLockEndsBeforeTheRequestDeadline() async throws {
            try await Cluster.run(size: 1, environment: ["ALMANAC_UPSTREAM_REQUEST_DEADLINE_MS": "4000",
                                                         "ALMANAC_UPSTREAM_TIMEOUT_MS": "3000"]) { cluster in
                let redis = try Self.redis(cluster)
                try await redis.set("almanac:lock:rates:table", "dead-replica-token", expireMilliseconds: 60_000)
                let started = ContinuousClock.now
                let served = try await cluster.get(0, "/v1/rates")
                let took = ContinuousClock.now - started
                #expect(served.status == 200)
                #expect(took < .milliseconds(4_000), "took \(took)")
                #expect(try await cluster.metric(0, "almanac_cache_l2_wait_timeouts_total") == 1)
            }
        }
    }
}
