import TestSupport
import Foundation
import HTTPClientTestSupport
import Testing
@testable import Almanac

extension FullStackTests {
    /// Every upstream failure is a warn line with provider, cause, redacted URL and the request
    /// id, also when nobody sees an error: a later provider recovered it, or it was a background
    /// refresh while a stale answer was served.
    @Suite struct UpstreamLog {
        static let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

        static func failureLines(_ s: FullStack, requestID: String) -> [String] {
            s.logs.lines.filter { $0.contains(#""msg":"upstream failed""#) && $0.contains(#""request_id":"\#(requestID)""#) }
        }

        @Test func aFailureALaterProviderRecoveredIsLoggedOnceWithTheRequestID() async throws {
            try await FullStack.run(configure: { FullStack.unthrottled(&$0) }) { s in
                s.stub.setFault(.status(503), for: F.googlePath)
                let response = try await s.get("/v1/books/\(F.isbn13)", headers: ["X-Request-ID: fell-through"])
                #expect(response.status == 200, "open-library answered")
                #expect(await waitUntil { !Self.failureLines(s, requestID: "fell-through").isEmpty })
                let lines = Self.failureLines(s, requestID: "fell-through")
                #expect(lines.count == 1, "\(lines)")
                let line = try #require(lines.first)
                #expect(line.contains(#""level":"warn""#))
                #expect(line.contains(#""provider":"google-books""#))
                #expect(line.contains(#""url":"http://127.0.0.1:\#(s.stub.port)/books/v1/volumes"#))
                #expect(line.contains(#""background":"false""#))
                #expect(!s.logs.lines.contains { $0.contains(#""msg":"upstream failed""#) && $0.contains("open-library") })
            }
        }

        @Test func aFailedBackgroundRefreshIsLoggedWithTheRequestThatStartedIt() async throws {
            try await FullStack.run(configure: { c in
                FullStack.unthrottled(&c)
                c.rates.ttlSeconds = 1
                c.rates.staleSeconds = 60
            }) { s in
                #expect(try await s.get("/v1/rates/USD").header("X-Cache") == "MISS")
                s.stub.setFault(.status(503), for: F.coinbasePath)
                s.stub.setFault(.status(503), for: F.coingeckoPath)
                var staleID: String?
                #expect(await waitUntil {
                    let id = "swr-\(UUID().uuidString.prefix(8))"
                    guard let r = try? await s.get("/v1/rates/USD", headers: ["X-Request-ID: \(id)", "traceparent: \(Self.traceparent)"])
                    else { return false }
                    if r.header("X-Cache") == "STALE" { staleID = id }
                    return staleID != nil
                }, "a STALE answer after expiry")
                let id = try #require(staleID)
                #expect(await waitUntil { Self.failureLines(s, requestID: id).count == 2 },
                        "the refresh's two failures (coinbase, coingecko) under the id of the request that found the answer stale")
                let lines = Self.failureLines(s, requestID: id)
                #expect(lines.allSatisfy { $0.contains(#""background":"true""#) })
                #expect(lines.allSatisfy { $0.contains(#""trace_id":"4bf92f3577b34da6a3ce929d0e0e4736""#) },
                        "the refresh carries the trace of the request that started it")
                #expect(lines.contains { $0.contains(#""provider":"coinbase""#) })
                #expect(lines.contains { $0.contains(#""provider":"coingecko""#) })
            }
        }
    }
}
