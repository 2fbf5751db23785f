import TestSupport
import Foundation
import HTTPClient
import HTTPClientTestSupport
import Rates
import Testing
@testable import Almanac

extension FullStackTests {
    /// Health, readiness, metrics, OpenAPI and the admin API through the real app.
    @Suite struct Operations {
        @Test func healthAndReadiness() async throws {
            try await FullStack.run { s in
                let health = try await s.get("/healthz")
                #expect(health.status == 200)
                #expect(health.json == .object(["status": .string("ok")]))
                #expect(health.header("Content-Type")?.hasPrefix("application/json") == true)
                let ready = try await s.get("/readyz")
                #expect(ready.status == 200)
                let missing = try await s.get("/nope")
                missing.expectProblem(404)
                #expect(s.stub.totalRequests == 0)
            }
        }

        @Test func metricsCountUpstreamRequestsAndCache() async throws {
            try await FullStack.run { s in
                s.stub.setFault(.status(503), for: F.coinbasePath)
                #expect(try await s.get("/v1/rates").status == 200) // coinbase fails, coingecko answers
                #expect(try await s.get("/v1/rates").header("X-Cache") == "HIT")
                #expect(try await s.get("/v1/books/\(F.isbn13)").status == 200)
                let r = try await s.get("/metrics")
                #expect(r.status == 200)
                #expect(r.header("Content-Type")?.hasPrefix("text/plain") == true)
                #expect(r.header("Cache-Control") == "no-store")
                let text = r.text
                for provider in ["coingecko", "google-books", "open-library"] {
                    #expect(metricValue(text, "almanac_upstream_requests_total", ["provider": provider, "outcome": "ok"]) == 1,
                            "\(provider) ok")
                }
                let coinbase = text.split(separator: "\n").filter {
                    $0.hasPrefix("almanac_upstream_requests_total{") && $0.contains("provider=\"coinbase\"")
                }
                #expect(coinbase.count == 1, "\(coinbase)")
                #expect(coinbase.first.map { !$0.contains("outcome=\"ok\"") && $0.hasSuffix(" 1") } == true, "\(coinbase)")
                #expect(metricValue(text, "almanac_upstream_request_duration_seconds_count", ["provider": "coingecko"]) == 1)
                #expect(metricValue(text, "almanac_cache_misses_total", ["namespace": "rates"]) == 1)
                #expect(metricValue(text, "almanac_cache_hits_total", ["namespace": "rates"]) == 1)
                #expect(metricValue(text, "almanac_cache_misses_total", ["namespace": "books"]) == 1)
                #expect(metricValue(text, "almanac_cache_entries", ["namespace": "rates"]) == 1)
                #expect(metricValue(text, "almanac_http_requests_total",
                                    ["route": "/v1/rates", "method": "GET", "status": "200"]) == 2)
                #expect(metricValue(text, "almanac_build_info") == 1)
                #expect(metricValue(text, "almanac_http_open_connections").map { $0 >= 1 } == true)
            }
        }

        @Test func openAPIDocument() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/openapi.json")
                #expect(r.status == 200)
                #expect(r.header("Content-Type")?.hasPrefix("application/json") == true)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
                let version = try #require(object["openapi"] as? String)
                #expect(version.hasPrefix("3.1."), "\(version)")
                let paths = try #require(object["paths"] as? [String: Any])
                for path in ["/v1/rates", "/v1/convert", "/v1/books/{isbn}", "/healthz", "/metrics"] {
                    #expect(paths[path] != nil, "\(path)")
                }
            }
        }

        @Test func adminPurgeMakesTheNextRequestAMiss() async throws {
            try await FullStack.run { s in
                #expect(try await s.get("/v1/rates").header("X-Cache") == "MISS")
                #expect(try await s.get("/v1/rates").header("X-Cache") == "HIT")

                let anonymous = try await s.get("/admin/cache/rates", method: "DELETE")
                anonymous.expectProblem(401)
                #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                let wrong = try await s.get("/admin/cache/rates", method: "DELETE", headers: ["Authorization: Bearer not-the-token"])
                wrong.expectProblem(401)
                #expect(try await s.get("/v1/rates").header("X-Cache") == "HIT")

                let auth = "Authorization: Bearer \(FullStack.adminToken)"
                let stats = try await s.get("/admin/cache", headers: [auth])
                #expect(stats.status == 200)
                #expect(stats.json?["namespaces"]?["rates"]?["entries"] == .number("1"))

                let purge = try await s.get("/admin/cache/rates", method: "DELETE", headers: [auth])
                #expect(purge.status == 200, "\(purge.text)")
                #expect(purge.json == .object(["purged": .array([.string("rates")])]))

                let after = try await s.get("/v1/rates")
                #expect(after.status == 200)
                #expect(after.header("X-Cache") == "MISS")
                #expect(s.count(F.coinbasePath) == 2)
                // The admin token never reaches a log line.
                #expect(!s.logs.lines.contains { $0.contains(FullStack.adminToken) })
            }
        }

        @Test func adminIsAbsentWithoutAToken() async throws {
            try await FullStack.run(configure: { $0.server.adminToken = nil }) { s in
                let r = try await s.get("/admin/cache", headers: ["Authorization: Bearer \(FullStack.adminToken)"])
                r.expectProblem(404)
            }
        }
    }

    /// A few HTTP/1.1 server behaviours through the full app (the HTTPServer suite has the rest).
    @Suite struct Server {
        @Test func keepAliveServesOneHundredRequestsOnOneConnection() async throws {
            try await FullStack.run { s in
                let client = try s.connect()
                for i in 0..<100 {
                    let target = i.isMultiple(of: 2) ? "/v1/rates/USD" : "/healthz"
                    try await client.request("GET", target)
                    let r = try await client.readResponse()
                    #expect(r.status == 200, "request \(i)")
                    #expect(r.header("Connection")?.lowercased() != "close", "request \(i)")
                    if i == 98 { #expect(r.json?["rate"] == .number("91234.56")) }
                }
                #expect(s.count(F.coinbasePath) == 1)
                // And `Connection: close` is honoured at the end.
                try await client.request("GET", "/healthz", extra: ["Connection: close"])
                let last = try await client.readResponse()
                #expect(last.status == 200)
                #expect(last.header("Connection")?.lowercased() == "close")
                #expect(await client.isClosedByPeer(within: 5))
            }
        }

        @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
            try await FullStack.run { s in
                let client = try s.connect()
                // The first needs the upstream (pending), the others are answered at once:
                // the order on the wire is still the order of the requests.
                let batch = RawHTTPClient.requestText("GET", "/v1/rates/EUR", extra: ["X-Request-ID: pipe-1"])
                    + RawHTTPClient.requestText("GET", "/healthz", extra: ["X-Request-ID: pipe-2"])
                    + RawHTTPClient.requestText("GET", "/v1/books/bad", extra: ["X-Request-ID: pipe-3"])
                try await client.send(batch)
                let first = try await client.readResponse()
                let second = try await client.readResponse()
                let third = try await client.readResponse()
                #expect(first.header("X-Request-ID") == "pipe-1")
                #expect(first.status == 200)
                #expect(first.json?["code"] == .string("EUR"))
                #expect(second.header("X-Request-ID") == "pipe-2")
                #expect(second.json == .object(["status": .string("ok")]))
                #expect(third.header("X-Request-ID") == "pipe-3")
                #expect(third.status == 400)
            }
        }

        @Test func headHasTheHeadersAndNoBody() async throws {
            try await FullStack.run { s in
                let get = try await s.get("/v1/rates")
                let client = try s.connect()
                try await client.request("HEAD", "/v1/rates")
                let head = try await client.readResponse(head: true)
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == String(get.body.count))
                #expect(head.header("Content-Type") == "application/json; charset=utf-8")
                #expect(head.header("ETag") == get.header("ETag"))
                #expect(head.header("X-Cache") == "HIT")
                #expect(head.body.isEmpty)
                #expect(client.unread == 0)
                // No body bytes follow: the next response on the connection parses cleanly.
                try await client.request("GET", "/healthz")
                let next = try await client.readResponse()
                #expect(next.status == 200)
                #expect(next.json == .object(["status": .string("ok")]))
            }
        }

        @Test func requestIDIsEchoedOrGenerated() async throws {
            try await FullStack.run { s in
                let echoed = try await s.get("/v1/rates/USD", headers: ["X-Request-ID: trace-abc-123"])
                #expect(echoed.header("X-Request-ID") == "trace-abc-123")
                let generated = try await s.get("/healthz")
                let id = try #require(generated.header("X-Request-ID"))
                #expect(!id.isEmpty)
                #expect(generated.header("Date") != nil)
                #expect(generated.header("Server") != nil)
                #expect(generated.header("Content-Length") == String(generated.body.count))
                // Access log lines carry the ids.
                #expect(await waitUntil {
                    s.logs.lines.contains { $0.contains("trace-abc-123") } && s.logs.lines.contains { $0.contains(id) }
                }, "the access log lines")
            }
        }

        /// A method is any token the client sends: a long one is clipped in the access log.
        @Test func aLongMethodIsClippedInTheLog() async throws {
            try await FullStack.run { s in
                let method = String(repeating: "M", count: 2000)
                let r = try await s.get("/v1/rates", method: method, headers: ["X-Request-ID: long-method"])
                #expect(r.status >= 400)
                #expect(await waitUntil { s.logs.lines.contains { $0.contains("long-method") } }, "the access log line")
                let line = try #require(s.logs.lines.first { $0.contains("long-method") })
                #expect(line.contains(String(repeating: "M", count: 32) + "…"), "\(line.prefix(300))")
                #expect(!line.contains(String(repeating: "M", count: 33)), "\(line.prefix(300))")
            }
        }
    }
}

extension FullStackTests.Server {
    /// `AlmanacApp.shutdown()` with a request in flight: new connections are refused, the
    /// request is answered (with `Connection: close`), then the connection is closed — a
    /// request pipelined behind it is left unanswered for the client to retry elsewhere.
    @Test func drainFinishesTheInFlightRequest() async throws {
        let gate = ThreadGate()
        let s = try FullStack(script: { stub in
            FullStackFixtures.scriptAll(stub)
            stub.route(F.coinbasePath) { _ in
                gate.wait()
                return .json(F.coinbase)
            }
        })
        defer {
            gate.open()
            s.stub.stop()
        }
        let client = try s.connect()
        try await client.send(RawHTTPClient.requestText("GET", "/v1/rates/USD", extra: ["X-Request-ID: held"])
            + RawHTTPClient.requestText("GET", "/readyz", extra: ["X-Request-ID: behind"]))
        #expect(await waitUntil { gate.waiting == 1 }, "the request reaching the upstream")
        let shutdown = Task { await s.app.shutdown() }
        #expect(await waitUntil { (try? s.connect()) == nil }, "new connections refused while draining")
        gate.open()
        let held = try await client.readResponse()
        #expect(held.status == 200)
        #expect(held.header("X-Request-ID") == "held")
        #expect(held.json?["rate"] == .number("91234.56"))
        #expect(held.header("Connection")?.lowercased() == "close")
        #expect(await client.isClosedByPeer(within: 5))
        client.close()
        await shutdown.value
        #expect(s.logs.lines.contains { $0.contains(#""msg":"stopped""#) })
    }
}

extension FullStackTests.Server {
    /// After `shutdown()` nothing keeps the app's parts alive: the upstream client (its curl
    /// multi handle, wakeup socketpair, timer and pooled upstream connections) is released.
    /// It once leaked: `Lifecycle` → `HTTPServer` → responder → router → readiness closure →
    /// `Lifecycle`, a cycle that held every started app, and its sockets, for good.
    @Test func shutdownReleasesTheAppAndItsUpstreamClient() async throws {
        weak var weakApp: AlmanacApp?
        weak var weakClient: CurlHTTPClient?
        do {
            let s = try FullStack(configure: { $0.server.http.shutdownGraceSeconds = 0.2 })
            weakApp = s.app
            weakClient = s.app.httpClient as? CurlHTTPClient
            #expect(weakClient != nil)
            #expect(try await s.get("/v1/rates").status == 200)
            #expect(try await s.get("/v1/books/\(F.isbn13)").status == 200)
            await s.stop()
        }
        #expect(await waitUntil { weakApp == nil }, "the app released")
        #expect(await waitUntil { weakClient == nil }, "the upstream client released after shutdown")
    }
}
