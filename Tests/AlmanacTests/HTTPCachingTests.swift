import Testing
import Cache
import HTTPClient
import HTTP1
@testable import Almanac

/// Cached representations as clients get them: rendered by a route (`HTTPCaching.response`)
/// and finished by the app's pipeline (`ContentCodingStep`, `ConditionalRequestStep`,
/// `CachingHeadersStep`, then CORS).
@Suite struct HTTPCachingTests {
    let body = Array(#"{"ok":true}"#.utf8)

    func respond(_ headers: HTTPHeaders = HTTPHeaders(), outcome: CacheOutcome = .hit,
                 age: Double = 12.7, left: Double = 47.2) async -> HTTPResponse {
        await serveRepresentation(body, freshness: .init(outcome: outcome, ageSeconds: age, freshnessLeftSeconds: left),
                                  headers: headers)
    }

    @Test func hitCarriesEveryCachingHeader() async {
        let r = await respond()
        #expect(r.status == .ok)
        #expect(r.body == body)
        #expect(r.headers["ETag"] == "\"abc\"")
        #expect(r.headers["Age"] == "12")
        #expect(r.headers["Cache-Control"] == "public, max-age=47")
        #expect(r.headers["X-Cache"] == "HIT")
        #expect(r.headers["Cache-Status"] == "almanac; hit; ttl=47")
        #expect(r.headers["Content-Type"] == "application/json; charset=utf-8")
    }

    /// A fresh hit's fields are prepared once per entry and second (`PreparedCachingFields`):
    /// the second hit with the same validator and seconds carries the prepared block, with the
    /// very same fields as the first, plain one; another second gets fields of its own.
    @Test func repeatedHitsShareOnePreparedBlockWithTheSameFields() async throws {
        let first = await respond(age: 3.2, left: 1_234.5)
        #expect(first.headers.prepared == nil, "a combination seen once is sent plain")
        // The table is shared by every test running in parallel: a few tries ride out an
        // eviction between two calls.
        var second: HTTPResponse?
        for _ in 0..<5 where second == nil {
            let candidate = await respond(age: 3.9, left: 1_234.1)
            if candidate.headers.prepared != nil { second = candidate }
        }
        let prepared = try #require(second)
        #expect(prepared.headers == first.headers)
        let third = await respond(age: 3.5, left: 1_234.9)
        #expect(third.headers.prepared === prepared.headers.prepared)
        let nextSecond = await respond(age: 4.1, left: 1_233.2)
        #expect(nextSecond.headers["Age"] == "4")
        #expect(nextSecond.headers["Cache-Control"] == "public, max-age=1233")
        #expect(nextSecond.headers.prepared !== prepared.headers.prepared)
        let stale = await respond(outcome: .stale, age: 3.2, left: 0)
        let staleAgain = await respond(outcome: .stale, age: 3.2, left: 0)
        #expect(staleAgain.headers.prepared == nil, "only fresh L1 hits are prepared")
        #expect(stale.headers == staleAgain.headers)
    }

    @Test func staleAndMissStatuses() async {
        let stale = await respond(outcome: .stale, age: 90, left: 0)
        #expect(stale.headers["X-Cache"] == "STALE")
        #expect(stale.headers["Cache-Control"] == "public, max-age=0")
        #expect(stale.headers["Cache-Status"] == "almanac; hit; ttl=0; detail=stale-while-revalidate")
        let miss = await respond(outcome: .miss, age: 0, left: 59.9)
        #expect(miss.headers["X-Cache"] == "MISS")
        #expect(miss.headers["Cache-Status"] == "almanac; fwd=uri-miss; stored; ttl=59")
    }

    /// RFC 9211 §2.6: a miss answered by another request's load says `collapsed`; `X-Cache` stays MISS.
    @Test func collapsedMissStatus() async {
        let follower = await serveRepresentation(
            body, freshness: .init(outcome: .miss, ageSeconds: 0, freshnessLeftSeconds: 59.9, collapsed: true))
        #expect(follower.headers["X-Cache"] == "MISS")
        #expect(follower.headers["Cache-Status"] == "almanac; fwd=uri-miss; collapsed; stored; ttl=59")

        struct V: CacheValue { var cacheCost: Int { 1 }; var cacheValidator: String { "v" } }
        let led = CacheLookup(value: V(), outcome: .miss, ageSeconds: 0, freshnessLeftSeconds: 30, validator: "v")
        #expect(!CacheFreshness(led).collapsed)
        #expect(HTTPCaching.cacheStatus(.init(CacheFreshness(led))) == "almanac; fwd=uri-miss; stored; ttl=30")
        var joined = led
        joined.collapsed = true
        #expect(CacheFreshness(joined).collapsed)
        #expect(HTTPCaching.cacheStatus(.init(CacheFreshness(joined))) == "almanac; fwd=uri-miss; collapsed; stored; ttl=30")
        // Only a miss can be collapsed.
        #expect(HTTPCaching.cacheStatus(.init(outcome: .hit, ageSeconds: 1, freshnessLeftSeconds: 30, collapsed: true))
                == "almanac; hit; ttl=30")
    }

    @Test func ifNoneMatchGives304WithoutBody() async {
        for value in ["\"abc\"", "W/\"abc\"", "\"zzz\", \"abc\"", "*"] {
            let r = await respond(["If-None-Match": value])
            #expect(r.status == .notModified, "If-None-Match: \(value)")
            #expect(r.body.isEmpty)
            #expect(r.headers["ETag"] == "\"abc\"")
        }
        #expect(await respond(["If-None-Match": "\"abcd\""]).status == .ok)
    }

    /// The book route's quoting (a cached book's ETag, made on every hit) spells exactly what
    /// `strongETag` spells without a variant, for short inline validators and long ones.
    @Test func bookQuotingIsStrongETagWithoutVariant() {
        for validator in ["", "v", "0123456789abc", "0123456789abcdef", String(repeating: "f", count: 64), "caf\u{E9}"] {
            #expect(BooksRoutes.quoted(validator) == HTTPCaching.strongETag(validator: validator), "\(validator)")
            #expect(Array(BooksRoutes.quoted(validator).utf8) == Array("\"\(validator)\"".utf8))
        }
    }

    @Test func strongETagsDifferByVariant() {
        let a = HTTPCaching.strongETag(validator: "v1", variant: "/v1/rates?base=EUR")
        let b = HTTPCaching.strongETag(validator: "v1", variant: "/v1/rates?base=USD")
        #expect(a != b)
        #expect(a == HTTPCaching.strongETag(validator: "v1", variant: "/v1/rates?base=EUR"))
        #expect(a.hasPrefix("\"v1-") && a.hasSuffix("\""))
        #expect(HTTPCaching.strongETag(validator: "v1") == "\"v1\"")
    }

    @Test func upstreamErrorsMapTo502And504() {
        let timeout = UpstreamProblem.problem(for: UpstreamError(.timeout, provider: "google-books", detail: "timed out after 5000 ms"),
                                              requestID: "req-1")
        #expect(timeout.status.code == 504)
        #expect(timeout.detail == "google-books: timed out after 5000 ms (request id req-1)")
        let status = UpstreamProblem.problem(for: UpstreamError(.other, provider: "coinbase", detail: "HTTP 503"), requestID: "req-2")
        #expect(status.status.code == 502)
        #expect(status.detail == "coinbase: HTTP 503 (request id req-2)")
        let malformed = UpstreamProblem.problem(for: UpstreamError(.malformed, provider: "open-library", detail: "field ISBN:1.title: expected a string"))
        #expect(malformed.detail == "open-library: malformed answer (field ISBN:1.title: expected a string)")
        let redirected = UpstreamProblem.problem(for: UpstreamError(.redirected, provider: "coinbase", detail: "redirected",
                                                                    diagnostic: "HTTP 302 to http://10.0.0.7:8080/x", url: "http://10.0.0.6/v2"))
        #expect(redirected.detail == "coinbase: redirected")
        let both = UpstreamProblem.problem(forAll: [
            UpstreamError(.timeout, provider: "a", detail: "timed out after 10 ms"), UpstreamError(.malformed, provider: "b", detail: "m"),
        ], requestID: "req-3")
        #expect(both.status.code == 502)
        #expect(both.detail == "Every provider failed: a: timed out after 10 ms; b: malformed answer (m) (request id req-3)")
        // A detail that slipped a URL through is replaced by its class.
        let leaky = UpstreamProblem.problem(for: UpstreamError(.other, provider: "p", detail: "GET http://internal:9/x failed"))
        #expect(leaky.detail == "p: other")
        let allTimeouts = UpstreamProblem.problem(forAll: [
            UpstreamError(.timeout, provider: "a", detail: "t"), UpstreamError(.timeout, provider: "b", detail: "t"),
        ])
        #expect(allTimeouts.status.code == 504)
    }
}
