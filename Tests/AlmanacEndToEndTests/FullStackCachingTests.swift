import TestSupport
import Foundation
import HTTPClientTestSupport
import Rates
import Synchronization
import Testing
@testable import Almanac

/// `max-age` in `Cache-Control: public, max-age=N`, or nil for any other value.
func maxAge(_ r: RawHTTPResponse) -> Int? {
    guard let value = r.header("Cache-Control"), value.hasPrefix("public, max-age=") else { return nil }
    return Int(value.dropFirst("public, max-age=".count))
}

extension FullStackTests {
    /// docs/cache.md "What a client sees" as a client sees it over the wire: headers, coalescing, stale-while-revalidate,
    /// stale-if-error, timeouts.
    @Suite struct Caching {
        @Test func missThenHitWithCachingHeaders() async throws {
            try await FullStack.run { s in
                let miss = try await s.get("/v1/rates")
                #expect(miss.status == 200)
                #expect(miss.header("X-Cache") == "MISS")
                #expect(miss.header("Age") == "0")
                let missAge = try #require(maxAge(miss), "Cache-Control: \(miss.header("Cache-Control") ?? "none")")
                #expect(missAge > 0 && missAge <= 60)
                let etag = try #require(miss.header("ETag"))
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 2, "strong ETag: \(etag)")
                #expect(miss.header("Cache-Status")?.hasPrefix("almanac; fwd=uri-miss; stored") == true)

                let hit = try await s.get("/v1/rates")
                #expect(hit.status == 200)
                #expect(hit.header("X-Cache") == "HIT")
                #expect(hit.header("ETag") == etag)
                #expect(hit.body == miss.body)
                let age = try #require(hit.header("Age").flatMap { Int($0) })
                #expect(age >= 0 && age <= 60)
                let hitAge = try #require(maxAge(hit))
                #expect(hitAge <= missAge)
                #expect(hit.header("Cache-Status")?.hasPrefix("almanac; hit; ttl=") == true)

                // Other representations of the same table carry other tags.
                let usd = try await s.get("/v1/rates/USD")
                #expect(usd.header("X-Cache") == "HIT")
                #expect(usd.header("ETag") != etag)

                let notModified = try await s.get("/v1/rates", headers: ["If-None-Match: \(etag)"])
                #expect(notModified.status == 304)
                #expect(notModified.body.isEmpty)
                #expect(notModified.header("ETag") == etag)
                #expect(notModified.header("Content-Length") == nil, "RFC 9110 §8.6")

                let otherTag = try await s.get("/v1/rates", headers: ["If-None-Match: \"something-else\""])
                #expect(otherTag.status == 200)
                #expect(otherTag.body == miss.body)

                // Errors are never cached.
                let error = try await s.get("/v1/rates/ZZZ")
                error.expectProblem(404)
                #expect(error.header("Cache-Control") == "no-store")
                #expect(error.header("ETag") == nil)
                #expect(s.count(F.coinbasePath) == 1)
            }
        }

        @Test func concurrentColdRequestsMakeOneUpstreamRequest() async throws {
            let gate = ThreadGate()
            try await FullStack.run(script: { stub in
                FullStackFixtures.scriptAll(stub)
                stub.route(F.coinbasePath) { _ in
                    gate.wait()
                    return .json(F.coinbase)
                }
            }) { s in
                let clients = 200
                try await withThrowingTaskGroup(of: RawHTTPResponse.self) { group in
                    for _ in 0..<clients {
                        group.addTask {
                            let client = try s.connect(timeout: 30)
                            try await client.request("GET", "/v1/rates/USD")
                            return try await client.readResponse()
                        }
                    }
                    // Every request waits on the one load before the upstream may answer.
                    #expect(await waitUntil(timeout: 30) {
                        s.cacheStats("rates").misses == UInt64(clients)
                    }, "\(clients) requests waiting on one load")
                    #expect(await waitUntil { gate.waiting == 1 }, "the one load reaching the upstream")
                    #expect(s.count(F.coinbasePath) == 1)
                    gate.open()
                    var statuses: [Int: Int] = [:]
                    var bodies = Set<[UInt8]>()
                    var cacheStatuses: [String?] = []
                    for try await r in group {
                        statuses[r.status, default: 0] += 1
                        bodies.insert(r.body)
                        #expect(r.header("X-Cache") == "MISS")
                        cacheStatuses.append(r.header("Cache-Status"))
                    }
                    #expect(statuses == [200: clients])
                    #expect(bodies.count == 1)
                    expectOneLeaderTheRestCollapsed(cacheStatuses)
                }
                #expect(s.count(F.coinbasePath) == 1)
                #expect(s.count(F.coingeckoPath) == 0)
                #expect(s.stub.totalRequests == 1)
            }
        }

        @Test func staleWhileRevalidate() async throws {
            let refreshGate = ThreadGate()
            try await FullStack.run(configure: { c in
                c.rates.ttlSeconds = 2
                c.rates.staleSeconds = 30
            }, script: { stub in
                FullStackFixtures.scriptAll(stub)
                let calls = Locked(0)
                stub.route(F.coinbasePath) { _ in
                    guard calls.increment() > 1 else { return .json(F.coinbase) }
                    refreshGate.wait()
                    return .json(F.coinbaseRefreshed)
                }
            }) { s in
                let first = try await s.get("/v1/rates/USD")
                #expect(first.header("X-Cache") == "MISS")
                #expect(first.json?["rate"] == .number("91234.56"))

                var stale: RawHTTPResponse?
                #expect(await waitUntil {
                    guard let r = try? await s.get("/v1/rates/USD") else { return false }
                    if r.header("X-Cache") == "STALE" { stale = r }
                    return stale != nil
                }, "a STALE answer after expiry")
                let r = try #require(stale)
                #expect(r.status == 200)
                #expect(r.json?["rate"] == .number("91234.56"))
                #expect(maxAge(r) == 0)
                #expect(Int(r.header("Age") ?? "") ?? -1 >= 1)
                #expect(r.header("Cache-Status")?.contains("stale") == true)

                // One background refresh started, held at the stub.
                #expect(await waitUntil { refreshGate.waiting == 1 }, "the refresh reaching the upstream")
                // While it runs, answers are stale at once (they do not wait for it), and no
                // other refresh starts.
                for _ in 0..<5 {
                    let again = try await s.get("/v1/rates/USD")
                    #expect(again.header("X-Cache") == "STALE")
                    #expect(again.json?["rate"] == .number("91234.56"))
                }
                #expect(s.count(F.coinbasePath) == 2)

                refreshGate.open()
                var refreshed: RawHTTPResponse?
                #expect(await waitUntil {
                    guard let r = try? await s.get("/v1/rates/USD") else { return false }
                    if r.json?["rate"] == .number("95000") { refreshed = r }
                    return refreshed != nil
                }, "the refreshed table")
                #expect(refreshed?.header("X-Cache") == "HIT")
                #expect(refreshed.flatMap(maxAge) ?? 0 > 0)
                #expect(s.count(F.coinbasePath) == 2)
                #expect(s.count(F.coingeckoPath) == 0)
            }
        }

        @Test func staleIfErrorKeepsServingStale() async throws {
            try await FullStack.run(configure: { c in
                c.rates.ttlSeconds = 2
                c.rates.staleSeconds = 30
            }) { s in
                let first = try await s.get("/v1/rates/USD")
                #expect(first.status == 200)
                s.stub.setFault(.status(503))

                #expect(await waitUntil {
                    (try? await s.get("/v1/rates/USD"))?.header("X-Cache") == "STALE"
                }, "a STALE answer after expiry")
                // The refresh failed on both providers...
                #expect(await waitUntil { s.count(F.coingeckoPath) >= 1 }, "the failed refresh")
                #expect(s.count(F.coinbasePath) >= 2)
                // ...and the stale table is still served, never the error.
                for _ in 0..<5 {
                    let r = try await s.get("/v1/rates/USD")
                    #expect(r.status == 200)
                    #expect(r.header("X-Cache") == "STALE")
                    #expect(r.json?["rate"] == .number("91234.56"))
                }
                let rates = try await s.get("/v1/rates")
                #expect(rates.status == 200)
                #expect(rates.header("X-Cache") == "STALE")
                // The hidden outage is logged at warn (after the failed refresh, so waited for),
                // once for the key however many refreshes failed.
                #expect(await waitUntil { s.logs.lines.contains { $0.contains("serving stale answers: refresh failed") } },
                        "the stale-serving warn line")
                let staleLines = s.logs.lines.filter { $0.contains("serving stale answers: refresh failed") }
                #expect(staleLines.count == 1, "\(staleLines)")
                #expect(staleLines.first?.contains("\"level\":\"warn\"") == true)
                #expect(staleLines.first?.contains("\"namespace\":\"rates\"") == true)
            }
        }

        @Test func pastTheStaleWindowTheErrorNamesTheProviders() async throws {
            try await FullStack.run(configure: { c in
                c.rates.ttlSeconds = 1
                c.rates.staleSeconds = 1
                // This test is about the stale window: keep the breaker and the budgets (tested
                // on their own) out of it, however often the loop below asks.
                c.upstream.steward.limits.breakerFailures = 1000
                c.rates.endpoints["coinbase"].budget.maxRequestsPerSecond = 0
                c.rates.endpoints["coingecko"].budget.maxRequestsPerSecond = 0
            }) { s in
                let first = try await s.get("/v1/rates")
                #expect(first.status == 200)
                s.stub.setFault(.status(503))
                var failure: RawHTTPResponse?
                let waited = await waitUntil {
                    guard let r = try? await s.get("/v1/rates") else { return false }
                    #expect(r.status == 200 || r.status == 502, "\(r.status): \(r.text)")
                    if r.status == 502 { failure = r }
                    return failure != nil
                }
                #expect(waited, "a 502 once the stale window has passed")
                let r = try #require(failure)
                let detail = r.expectProblem(502)
                #expect(detail.contains("coinbase") && detail.contains("coingecko"), "\(detail)")
                #expect(r.header("Cache-Control") == "no-store")
                #expect(r.header("X-Cache") == nil)
                // Upstream errors are not cached: the next request asks again.
                let before = s.count(F.coinbasePath)
                let again = try await s.get("/v1/rates")
                again.expectProblem(502)
                #expect(s.count(F.coinbasePath) == before + 1)
            }
        }

        @Test func hangingUpstreamIsAGatewayTimeout() async throws {
            try await FullStack.run(configure: { c in
                c.upstream.client.timeoutMs = 300
            }) { s in
                s.stub.setFault(.hang)
                let r = try await s.get("/v1/rates")
                let detail = r.expectProblem(504)
                #expect(detail.contains("coinbase") && detail.contains("coingecko"), "\(detail)")
                #expect(r.header("Cache-Control") == "no-store")
                #expect(s.count(F.coinbasePath) == 1)
                #expect(s.count(F.coingeckoPath) == 1)
            }
        }
    }
}

/// RFC 9211 for one coalesced miss: the one request whose load went upstream says
/// `fwd=uri-miss; stored`, every other one `fwd=uri-miss; collapsed; stored` (each with a `ttl`,
/// which depends on the jitter draw and is left out of the comparison).
func expectOneLeaderTheRestCollapsed(_ cacheStatuses: [String?], sourceLocation: SourceLocation = #_sourceLocation) {
    var counts: [String: Int] = [:]
    for status in cacheStatuses {
        let value = status ?? "(none)"
        let withoutTTL = value.range(of: "; ttl=").map { String(value[..<$0.lowerBound]) } ?? value
        counts[withoutTTL, default: 0] += 1
    }
    let expected = ["almanac; fwd=uri-miss; stored": 1,
                    "almanac; fwd=uri-miss; collapsed; stored": cacheStatuses.count - 1]
    #expect(counts == expected, sourceLocation: sourceLocation)
}

