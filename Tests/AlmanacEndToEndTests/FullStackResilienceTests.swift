import TestSupport
import Foundation
import HTTPClientTestSupport
import Rates
import Testing
@testable import Almanac

extension FullStackTests {
    /// Upstreams misbehaving in the ways docs/problems.md and docs/cache.md "What a client sees" promise to survive, over real sockets.
    @Suite struct Resilience {
        @Test func garbageFromCoinbaseFailsOverAndGarbageFromBothIsA502() async throws {
            try await FullStack.run { s in
                s.stub.setFault(.garbage, for: F.coinbasePath)
                let r = try await s.get("/v1/rates/USD")
                #expect(r.status == 200, "\(r.text)")
                #expect(r.json?["source"] == .string("coingecko"))
                #expect(r.json?["rate"] == .number("90000.5"))
            }
            try await FullStack.run { s in
                s.stub.route(F.coinbasePath, .text("<html>maintenance</html>"))
                s.stub.route(F.coingeckoPath, .json(#"{"bitcoin":{}}"#))
                let r = try await s.get("/v1/rates")
                let detail = r.expectProblem(502)
                #expect(detail.contains("coinbase") && detail.contains("coingecko"), "\(detail)")
                #expect(r.header("Cache-Control") == "no-store")
            }
        }

        /// An upstream 1.6 s from its first byte, then quick: served, though `upstream.stallSeconds`
        /// is 1 (only `upstream.timeoutMs` bounds the wait for the first byte).
        @Test func aSlowButHealthyUpstreamIsServed() async throws {
            try await FullStack.run(configure: { c in
                c.upstream.client.stallSeconds = 1
                c.upstream.client.timeoutMs = 20_000
            }) { s in
                s.stub.route(F.coinbasePath, handler: { _ in
                    // The upstream's own latency, emulated on the stub's connection thread.
                    Thread.sleep(forTimeInterval: 1.6)
                    return .json(F.coinbase)
                })
                let r = try await s.get("/v1/rates/USD")
                #expect(r.status == 200)
                #expect(r.header("X-Cache") == "MISS")
                #expect(s.count(F.coinbasePath) == 1)
                #expect(s.count(F.coingeckoPath) == 0, "coinbase answered; no fall-through")
            }
        }

        /// `upstream.retries` 2 and one 502 after another: a lone request makes all 3 attempts
        /// (fewer than 3 retries in flight, so the retry budget's share does not apply).
        @Test func aLoneRequestGetsEveryConfiguredRetry() async throws {
            try await FullStack.run(configure: { c in
                c.upstream.client.retries = 2
                c.upstream.client.retryBaseDelayMs = 1
            }) { s in
                s.stub.setFault(.status(502), for: F.coinbasePath)
                s.stub.setFault(.status(502), for: F.coingeckoPath)
                let r = try await s.get("/v1/rates/USD")
                r.expectProblem(502)
                #expect(s.count(F.coinbasePath) == 3)
                #expect(s.count(F.coingeckoPath) == 3)
            }
        }

        @Test func booksUpstreamFailureIsA502AndNotCached() async throws {
            try await FullStack.run { s in
                s.stub.setFault(.status(503), for: F.googlePath)
                s.stub.setFault(.status(500), for: F.openLibraryPath)
                let r = try await s.get("/v1/books/\(F.isbn13)")
                let detail = r.expectProblem(502)
                #expect(detail.contains("google-books") && detail.contains("open-library"), "\(detail)")
                #expect(r.header("Cache-Control") == "no-store")
                #expect(r.header("X-Cache") == nil)

                // Not cached: once the upstreams recover, the book is found.
                s.stub.setFault(nil, for: F.googlePath)
                s.stub.setFault(nil, for: F.openLibraryPath)
                let ok = try await s.get("/v1/books/\(F.isbn13)")
                #expect(ok.status == 200)
                #expect(ok.header("X-Cache") == "MISS")
                #expect(s.count(F.googlePath) == 2)
            }
        }

        @Test func googleTimeoutFallsThroughToOpenLibrary() async throws {
            try await FullStack.run(configure: { $0.upstream.client.timeoutMs = 300 }) { s in
                s.stub.setFault(.hang, for: F.googlePath)
                let r = try await s.get("/v1/books/\(F.isbn13)")
                #expect(r.status == 200, "\(r.text)")
                #expect(r.json?["source"] == .string("open-library"))
                let metrics = try await s.get("/metrics").text
                #expect(metricValue(metrics, "almanac_upstream_requests_total",
                                    ["provider": "google-books", "outcome": "timeout"]) == 1, "\(metrics)")
            }
        }

        @Test func concurrentLookupsOfOneBookInEitherFormMakeOneRequestPerProvider() async throws {
            let gate = ThreadGate()
            try await FullStack.run(script: { stub in
                FullStackFixtures.scriptAll(stub)
                stub.route(F.googleTarget(F.isbn13)) { _ in
                    gate.wait()
                    return .json(F.google)
                }
            }) { s in
                let forms = [F.isbn10, F.isbn13, "978-0-306-40615-7", "0-306-40615-2"]
                let clients = 40
                try await withThrowingTaskGroup(of: RawHTTPResponse.self) { group in
                    for i in 0..<clients {
                        group.addTask {
                            let client = try s.connect(timeout: 30)
                            try await client.request("GET", "/v1/books/\(forms[i % forms.count])")
                            return try await client.readResponse()
                        }
                    }
                    #expect(await waitUntil(timeout: 30) {
                        s.cacheStats("books").misses == UInt64(clients) && gate.waiting == 1
                    }, "every lookup waiting on one load")
                    gate.open()
                    var bodies = Set<[UInt8]>()
                    var cacheStatuses: [String?] = []
                    for try await r in group {
                        #expect(r.status == 200)
                        #expect(r.header("X-Cache") == "MISS")
                        bodies.insert(r.body)
                        cacheStatuses.append(r.header("Cache-Status"))
                    }
                    #expect(bodies.count == 1)
                    // One lookup led the load; every other form of the ISBN joined it.
                    expectOneLeaderTheRestCollapsed(cacheStatuses)
                }
                #expect(s.count(F.googlePath) == 1)
                #expect(s.count(F.openLibraryPath) == 1)
            }
        }

        @Test func coverThatIsNotAnImageIsA502AndNotCached() async throws {
            try await FullStack.run { s in
                s.stub.route(F.coverPath, .text("<html>not an image</html>"))
                let r = try await s.get("/v1/books/\(F.isbn13)/cover")
                let detail = r.expectProblem(502)
                #expect(detail.contains("is not an image"), "\(detail)")
                #expect(r.header("Cache-Control") == "no-store")
                // Served with the type its bytes have, not the label (JPEG bytes labelled PNG).
                s.stub.route(F.coverPath, StubResponse(status: 200, headers: [("Content-Type", "image/png")], body: F.jpeg))
                let ok = try await s.get("/v1/books/\(F.isbn13)/cover")
                #expect(ok.status == 200)
                #expect(ok.header("Content-Type") == "image/jpeg")
                #expect(ok.body == F.jpeg)
                #expect(s.count(F.coverPath) == 2)
            }
        }

        /// An SVG carrying script, labelled `image/png`, is not a cover: 502, never cached, and
        /// the real image is fetched once the upstream serves one.
        @Test func scriptedSVGLabelledAsAnImageIsA502AndNotCached() async throws {
            try await FullStack.run { s in
                let svg = #"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>"#
                s.stub.route(F.coverPath, StubResponse(status: 200, headers: [("Content-Type", "image/png")], body: Array(svg.utf8)))
                for _ in 0..<2 {
                    let r = try await s.get("/v1/books/\(F.isbn13)/cover")
                    let detail = r.expectProblem(502)
                    #expect(detail.contains("is not an image"), "\(detail)")
                    #expect(r.header("Cache-Control") == "no-store")
                    #expect(!r.body.starts(with: Array("<svg".utf8)))
                }
                #expect(s.count(F.coverPath) == 2)
            }
        }

        @Test func missingCoverIsACached404() async throws {
            try await FullStack.run { s in
                s.stub.route(F.coverPath, .json("{}", status: 404))
                let first = try await s.get("/v1/books/\(F.isbn13)/cover")
                first.expectProblem(404)
                #expect(first.header("X-Cache") == "MISS")
                #expect(maxAge(first) != nil)
                let second = try await s.get("/v1/books/\(F.isbn13)/cover")
                second.expectProblem(404)
                #expect(second.header("X-Cache") == "HIT")
                #expect(s.count(F.coverPath) == 1)
            }
        }

        @Test func coverRedirectOffTheProviderHostsIsNotFollowed() async throws {
            try await FullStack.run { s in
                // Same listener, but a host name no provider is configured with.
                s.stub.route(F.coverPath, StubResponse(status: 302, headers: [
                    ("Location", "http://localhost:\(s.stub.port)/b/id/elsewhere.jpg"),
                ]))
                s.stub.route("/b/id/elsewhere.jpg", StubResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: F.jpeg))
                let r = try await s.get("/v1/books/\(F.isbn13)/cover")
                r.expectProblem(502)
                #expect(r.header("Cache-Control") == "no-store")
                #expect(s.count(F.coverPath) == 1)
                #expect(s.count("/b/id/elsewhere.jpg") == 0)
            }
        }

        @Test func batchLimits() async throws {
            try await FullStack.run { s in
                let many = (0..<21).map { _ in F.isbn13 }.enumerated().map { "\($0.element)-\($0.offset)" }
                let tooMany = try await s.get("/v1/books?isbn=" + many.joined(separator: ","))
                tooMany.expectProblem(400)
                let none = try await s.get("/v1/books")
                none.expectProblem(400)
                #expect(s.stub.totalRequests == 0)
            }
        }
    }
}

extension FullStackTests.Binary {
    /// `PORT` (the platform convention) is honoured, `almanac healthcheck` probes the server,
    /// and SIGINT drains like SIGTERM.
    @Test func platformPortHealthcheckAndSIGINT() async throws {
        let port = try freeLoopbackPort()
        let spawned = try AlmanacBinary.Spawned([], environment: [
            "ALMANAC_SERVER_HOST": "127.0.0.1",
            "PORT": String(port),
            "ALMANAC_SERVER_SHUTDOWN_GRACE_SECONDS": "3",
            "ALMANAC_LOG_FORMAT": "text",
        ])
        defer {
            spawned.kill()
            spawned.removeFiles()
        }
        let url = "http://127.0.0.1:\(port)/healthz"
        var probe: (status: Int32?, stdout: String, stderr: String) = (nil, "", "")
        let up = await waitUntil(timeout: 30) {
            probe = (try? await AlmanacBinary.run(["healthcheck", "--url", url])) ?? (nil, "", "")
            return probe.status == 0
        }
        guard up else {
            Issue.record("healthcheck: \(probe.stderr)\nserver stdout: \(spawned.stdout)\nstderr: \(spawned.stderr)")
            return
        }
        let wrong = try await AlmanacBinary.run(["healthcheck", "--url", "http://127.0.0.1:\(port)/nope"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("404"), "\(wrong.stderr)")

        spawned.signal(SIGINT)
        let status = await spawned.exitStatus(within: 5)
        #expect(status == 0, "exit status \(String(describing: status)); stderr: \(spawned.stderr)")
        #expect(spawned.stdout.contains("msg=listening") || spawned.stdout.contains("listening"), "\(spawned.stdout)")
    }
}
