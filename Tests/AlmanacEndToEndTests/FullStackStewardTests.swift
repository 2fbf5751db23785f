import TestSupport
import Foundation
import HTTPClientTestSupport
import Testing
@testable import Almanac

/// The steward end to end: the real app and client against stub upstreams that say stop,
/// fail, or simply answer, with every count taken at the stub.
extension FullStackTests {
    @Suite struct Steward {
        /// `count` distinct valid ISBN-13s (978 + 9 digits + check digit).
        static func isbns(_ count: Int, from start: Int = 100_000_000) -> [String] {
            (0..<count).map { i in
                let body = "978" + String(start + i)
                var sum = 0
                for (index, byte) in body.utf8.enumerated() { sum += Int(byte - 48) * (index % 2 == 0 ? 1 : 3) }
                return body + String((10 - sum % 10) % 10)
            }
        }

        /// Google Books answers 429 (with `retryAfter` when given) to everything; Open Library
        /// knows every ISBN.
        static func script(googleStatus: Int, retryAfter: String?) -> (StubUpstream) -> Void {
            { stub in
                FullStackFixtures.scriptAll(stub)
                stub.route(F.googlePath) { _ in
                    StubResponse(status: googleStatus, headers: retryAfter.map { [("Retry-After", $0)] } ?? [],
                                 body: Array(#"{"error":{"code":429}}"#.utf8))
                }
                stub.route(F.openLibraryPath) { request in
                    let isbn = String((request.query ?? "").split(separator: "&").first { $0.hasPrefix("bibkeys=ISBN:") }?
                        .dropFirst("bibkeys=ISBN:".count) ?? "")
                    return .json(#"{"ISBN:\#(isbn)":{"title":"Stub \#(isbn)","authors":[{"name":"A"}]}}"#)
                }
            }
        }

        /// Sends GET `/v1/books/{isbn}` for each ISBN, `concurrency` at a time; returns the
        /// statuses and the slowest answer's seconds.
        static func storm(_ s: FullStack, _ isbns: [String], concurrency: Int) async throws -> (statuses: [Int], slowest: Double) {
            var statuses: [Int] = []
            var slowest = 0.0
            var next = 0
            try await withThrowingTaskGroup(of: (Int, Double).self) { group in
                func launch() {
                    let isbn = isbns[next]
                    next += 1
                    group.addTask {
                        let started = Date()
                        let r = try await s.get("/v1/books/\(isbn)")
                        return (r.status, Date().timeIntervalSince(started))
                    }
                }
                while next < min(concurrency, isbns.count) { launch() }
                while let (status, seconds) = try await group.next() {
                    statuses.append(status)
                    slowest = max(slowest, seconds)
                    if next < isbns.count { launch() }
                }
            }
            return (statuses, slowest)
        }

        @Test func aProviderSaying429IsSkippedUntilRetryAfterAndOthersAnswer() async throws {
            try await FullStack.run(configure: { c in
                c.books.endpoints["open-library"].budget.maxRequestsPerSecond = 0
            }, script: Self.script(googleStatus: 429, retryAfter: "1")) { s in
                let started = Date()
                let result = try await Self.storm(s, Self.isbns(120), concurrency: 10)
                let elapsed = Date().timeIntervalSince(started)
                #expect(result.statuses.allSatisfy { $0 == 200 }, "\(Set(result.statuses))")
                // The first wave (one per concurrent request) meets the 429; after that one probe
                // per cooldown second at most.
                let google = s.count(F.googlePath)
                #expect(google <= 10 + Int(elapsed.rounded(.up)) + 1, "\(google) requests to google-books in \(elapsed) s")
                #expect(s.count(F.openLibraryPath) == 120)
                let cooling = s.logs.lines.filter { $0.contains("asked to stop") }
                #expect(cooling.count == 1, "one log line per change: \(cooling)")

                let metrics = try await s.get("/metrics").text
                #expect(metrics.contains(#"almanac_upstream_skipped_total{provider="google-books",reason="cooldown"}"#))
                #expect(metrics.contains(#"almanac_upstream_state{provider="google-books"}"#))
                let admin = try await s.get("/admin/upstreams", headers: ["Authorization: Bearer \(FullStack.adminToken)"])
                #expect(admin.status == 200)
                #expect(admin.text.contains(#""provider":"google-books""#) && admin.text.contains(#""cooldown":{"#), "\(admin.text)")
                #expect(admin.text.contains(#""scope":"replica""#) && !admin.text.contains(#""scope":"cluster""#), "no Redis: its own state")
                let anonymous = try await s.get("/admin/upstreams")
                #expect(anonymous.status == 401)
            }
        }

        @Test func aBudgetOf5PerSecondIsNeverExceeded() async throws {
            try await FullStack.run(configure: { c in
                c.books.endpoints["google-books"].budget.maxRequestsPerSecond = 5
                c.books.endpoints["open-library"].budget.maxRequestsPerSecond = 0
            }, script: Self.script(googleStatus: 200, retryAfter: nil)) { s in
                let started = Date()
                let result = try await Self.storm(s, Self.isbns(80), concurrency: 20)
                let elapsed = Date().timeIntervalSince(started)
                #expect(result.statuses.allSatisfy { $0 == 200 }, "\(Set(result.statuses))")
                // Google answers 200 with no matching volume (not found), so every lookup falls through to Open
                // Library; what matters is how many reached Google: burst + rate × time.
                let google = s.count(F.googlePath)
                #expect(google <= 20 + Int((5 * elapsed).rounded(.up)), "\(google) requests to google-books in \(elapsed) s")
                #expect(google >= 20, "the burst goes at once")
                let metrics = try await s.get("/metrics").text
                #expect(metrics.contains(#"almanac_upstream_skipped_total{provider="google-books",reason="budget"}"#))
            }
        }

        @Test func whenEveryProviderIsSkippedTheAnswerIs503WithRetryAfter() async throws {
            try await FullStack.run(configure: { c in
                c.books.providers = ["google-books"]
            }, script: Self.script(googleStatus: 429, retryAfter: "3")) { s in
                let isbns = Self.isbns(2)
                let first = try await s.get("/v1/books/\(isbns[0])")
                first.expectProblem(502)
                let second = try await s.get("/v1/books/\(isbns[1])")
                let detail = second.expectProblem(503)
                #expect(detail.contains("google-books") && detail.contains("cooling down"), "\(detail)")
                #expect(second.text.contains("upstream-paused"))
                let retryAfter = Int(second.header("Retry-After") ?? "") ?? 0
                #expect((1...3).contains(retryAfter), "Retry-After \(second.header("Retry-After") ?? "none")")
                #expect(second.header("Cache-Control") == "no-store")
                #expect(s.count(F.googlePath) == 1, "the skipped request never reached google-books")
            }
        }

        @Test func consecutiveFailuresOpenTheBreakerAndItIsLoggedOnce() async throws {
            try await FullStack.run(configure: { c in
                c.upstream.steward.limits.breakerFailures = 2
                c.rates.providers = ["coinbase"]
            }) { s in
                s.stub.setFault(.status(500), for: F.coinbasePath)
                for _ in 0..<2 { try await s.get("/v1/rates").expectProblem(502) }
                let skipped = try await s.get("/v1/rates")
                #expect(skipped.expectProblem(503).contains("circuit breaker"))
                #expect(s.count(F.coinbasePath) == 2)
                #expect(s.logs.lines.filter { $0.contains("breaker opened") }.count == 1)
                // After the opening (1 s) one probe decides: the fault is gone, the breaker closes.
                s.stub.setFault(nil, for: F.coinbasePath)
                #expect(await waitUntil {
                    (try? await s.get("/v1/rates"))?.status == 200
                }, "the probe closes the breaker")
                #expect(s.logs.lines.filter { $0.contains("breaker closed") }.count == 1)
            }
        }

        @Test func theRequestDeadlineBoundsTheWholeChain() async throws {
            try await FullStack.run(configure: { c in
                c.upstream.client.timeoutMs = 10_000
                c.upstream.steward.requestDeadlineMs = 300
            }) { s in
                s.stub.setFault(.hang, for: F.coinbasePath)
                let r = try await s.get("/v1/rates")
                let detail = r.expectProblem(504)
                // coinbase used the whole deadline (not its 10 s timeout); coingecko was left
                // nothing and is reported, not silently dropped.
                #expect(detail.contains("coinbase") && detail.contains("not asked"), "\(detail)")
                #expect(s.count(F.coingeckoPath) == 0)
            }
        }
    }
}
