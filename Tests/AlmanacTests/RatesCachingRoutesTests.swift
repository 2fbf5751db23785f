import TestSupport
import Cache
import HTTP1
import Web
import Rates
import Testing
@testable import Almanac

/// docs/cache.md "What a client sees" as rates clients see it: X-Cache, Age, Cache-Control, ETag/304, coalescing,
/// stale-while-revalidate and stale-if-error, driven by a manual clock.
@Suite struct RatesCachingRoutesTests {
    @Test func missThenHitAnsweredReadyWithoutRendering() async {
        let h = RatesHarness()
        let miss = await h.get("/v1/rates?base=EUR")
        #expect(!miss.ready)
        #expect(miss.response.headers["X-Cache"] == "MISS")
        #expect(miss.response.headers["Age"] == "0")
        #expect(miss.response.headers["Cache-Control"] == "public, max-age=60")

        h.clock.advance(by: 10)
        let hit = await h.get("/v1/rates?base=EUR")
        #expect(hit.ready)
        #expect(hit.response.headers["X-Cache"] == "HIT")
        #expect(hit.response.headers["Age"] == "10")
        #expect(hit.response.headers["Cache-Control"] == "public, max-age=50")
        #expect(hit.response.headers["Cache-Status"] == "almanac; hit; ttl=50")
        #expect(hit.response.body == miss.response.body)
        #expect(hit.response.headers["ETag"] == miss.response.headers["ETag"])
        #expect(h.upstreamCalls == 1)
    }

    @Test func hitsShareOneRenderedBody() async {
        let h = RatesHarness()
        let memo = RatesRoutes.makeMemo()
        var router = Router()
        RatesRoutes.register(on: &router, service: h.service, memo: memo)
        let responder = pipelined(router)
        for _ in 0..<5 {
            if case let .pending(work) = responder(HTTPRequest(method: "GET", target: "/v1/currencies")) { _ = await work() }
        }
        #expect(memo.renderCount == 1)
    }

    @Test func etagsAreStrongAndDifferPerRepresentation() async throws {
        let h = RatesHarness()
        let a = try #require(await h.get("/v1/rates?base=EUR").response.headers["ETag"])
        let b = try #require(await h.get("/v1/rates?base=eur&ignored=1").response.headers["ETag"])
        let c = try #require(await h.get("/v1/rates?base=USD").response.headers["ETag"])
        #expect(a == b)
        #expect(a != c)
        #expect(a.hasPrefix("\"") && a.hasSuffix("\"") && !a.hasPrefix("W/"))
    }

    @Test func ifNoneMatchGives304() async throws {
        let h = RatesHarness()
        let etag = try #require(await h.get("/v1/bpi/currentprice.json").response.headers["ETag"])
        let (r, ready) = await h.get("/v1/bpi/currentprice.json", headers: ["If-None-Match": etag])
        #expect(ready)
        #expect(r.status == .notModified)
        #expect(r.body.isEmpty)
        #expect(r.headers["ETag"] == etag)
        let other = await h.get("/v1/bpi/currentprice.json", headers: ["If-None-Match": "\"nope\""]).response
        #expect(other.status == .ok)
    }

    @Test func twoHundredConcurrentColdRequestsMakeOneUpstreamRequest() async {
        let h = RatesHarness(gated: true)
        let targets = ["/v1/rates", "/v1/rates/USD", "/v1/convert?from=EUR&to=GBP", "/v1/currencies", "/v1/bpi/currentprice.json"]
        await withTaskGroup(of: HTTPResponse.self) { group in
            for n in 0..<200 {
                let target = targets[n % targets.count]
                group.addTask { await h.get(target).response }
            }
            // Every request is waiting on the one flight before the upstream answers.
            #expect(await waitUntil(timeout: 20) { h.stats.misses == 200 }, "200 waiting misses")
            h.openGate()
            var statuses: [Int] = []
            for await response in group {
                statuses.append(response.status.code)
                #expect(response.headers["X-Cache"] == "MISS")
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
        #expect(h.upstreamCalls == 1)
    }

    @Test func staleWhileRevalidate() async throws {
        let h = RatesHarness()
        let first = await h.get("/v1/rates/USD").response
        #expect(first.ratesJSON?["rate"] == .number("91234.56"))

        h.script("coinbase", .body(#"{"data":{"currency":"BTC","rates":{"USD":"95000"}}}"#))
        h.clock.advance(by: 61)
        let stale = await h.get("/v1/rates/USD")
        #expect(!stale.ready)
        #expect(stale.response.status == .ok)
        #expect(stale.response.headers["X-Cache"] == "STALE")
        #expect(stale.response.headers["Age"] == "61")
        #expect(stale.response.headers["Cache-Control"] == "public, max-age=0")
        #expect(stale.response.ratesJSON?["rate"] == .number("91234.56"))

        // exactly one background refresh, then the new table is served fresh
        #expect(await waitUntil(timeout: 20) { h.upstreamCalls == 2 && h.stats.loadsInFlight == 0 }, "the background refresh")
        let fresh = await h.get("/v1/rates/USD")
        #expect(fresh.ready)
        #expect(fresh.response.headers["X-Cache"] == "HIT")
        #expect(fresh.response.ratesJSON?["rate"] == .number("95000"))
        #expect(fresh.response.headers["ETag"] != first.headers["ETag"])
        #expect(h.upstreamCalls == 2)
    }

    @Test func staleIfErrorThenFailurePastTheWindow() async throws {
        let h = RatesHarness(ttl: 60, stale: 600)
        _ = await h.get("/v1/rates/USD")
        h.script("coinbase", .body("down", status: 503))
        h.script("coingecko", .fail(.connectionRefused))

        h.clock.advance(by: 100)
        let stale = await h.get("/v1/rates/USD").response
        #expect(stale.status == .ok)
        #expect(stale.headers["X-Cache"] == "STALE")
        #expect(await waitUntil(timeout: 20) { h.upstreamCalls == 3 && h.stats.loadsInFlight == 0 }, "the failed refresh")
        let stillStale = await h.get("/v1/rates/USD").response
        #expect(stillStale.status == .ok)
        #expect(stillStale.headers["X-Cache"] == "STALE")
        #expect(stillStale.ratesJSON?["rate"] == .number("91234.56"))
        #expect(await waitUntil(timeout: 20) { h.stats.loadsInFlight == 0 }, "the second failed refresh")

        h.clock.advance(by: 600) // 700 s after loading: past ttl + stale
        let failed = await h.get("/v1/rates/USD").response
        #expect(failed.status == .badGateway)
        #expect(failed.headers["Content-Type"] == "application/problem+json")
        #expect(failed.headers["Cache-Control"] == "no-store")
        let detail = try #require(failed.ratesJSON?["detail"])
        guard case let .string(text) = detail else { Issue.record("no detail"); return }
        #expect(text.contains("coinbase") && text.contains("HTTP 503"))
        #expect(text.contains("coingecko") && text.contains("connectionRefused"))
    }

    @Test func allTimeoutsIs504() async throws {
        let h = RatesHarness()
        h.script("coinbase", .fail(.timeout))
        h.script("coingecko", .fail(.timeout))
        let r = await h.get("/v1/rates").response
        #expect(r.status == .gatewayTimeout)
        #expect(r.headers["Cache-Control"] == "no-store")
        #expect(r.ratesJSON?["status"] == .number("504"))
    }

    @Test func garbageFromEveryProviderIs502NamingEach() async throws {
        let h = RatesHarness()
        h.script("coinbase", .body(#"{"data":{}}"#))
        h.script("coingecko", .body(#"{"bitcoin":{"usd":"x"}}"#))
        let r = await h.get("/v1/rates").response
        #expect(r.status == .badGateway)
        guard case let .string(detail)? = r.ratesJSON?["detail"] else { Issue.record("no detail"); return }
        #expect(detail.contains("missing field data.rates"))
        #expect(detail.contains("field bitcoin.usd is not a number"))
        // errors are not cached: the next request asks upstream again
        h.script("coinbase", .body(RatesHarness.coinbaseBody))
        #expect(await h.get("/v1/rates").response.status == .ok)
        #expect(h.upstreamCalls == 3)
    }
}
