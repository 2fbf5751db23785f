import Foundation
import HTTPClientTestSupport
import Rates
import Testing
@testable import Almanac

extension FullStackTests {
    /// The reproductions of "one GET kills the process" over real sockets: each gets a clear
    /// 400 problem, and the process keeps serving, on the same connection and on others.
    @Suite struct HostileInput {
        /// Combining marks, joiners, modifiers, non-ASCII digits, RTL marks and bytes that are
        /// not UTF-8, percent-encoded as a client must send them, on every ISBN entry point.
        static let reproductions: [(target: String, detail: String)] = [
            ("/v1/books/978076790817%CC%81", "U+0301 at position 13"),
            ("/v1/books/978076790817%CC%81/cover", "U+0301 at position 13"),
            ("/books/v1/volumes?q=isbn:978076790817%CC%81", "U+0301"),
            ("/v1/books/030640615%CC%882", "U+0308 at position 10"),
            ("/v1/books/97803064061%E2%80%8D57", "U+200D at position 12"),
            ("/v1/books/978030640615%EF%B8%8F%E2%83%A37", "U+FE0F at position 13"),
            ("/v1/books/978030640615%F0%9F%8F%BB7", "U+1F3FB at position 13"),
            ("/v1/books/%EF%BC%99780306406157", "U+FF19 at position 1"),
            ("/v1/books/978030640615%D9%A1", "U+0661 at position 13"),
            ("/v1/books/%E2%80%8F9780306406157", "U+200F at position 1"),
            ("/v1/books/978030640615%C0%AF", "U+FFFD at position 13"),
            ("/v1/books/978030640615%ED%A0%80", "U+FFFD at position 13"),
            ("/v1/rates/US%CC%88D", "three letters"),
            ("/v1/rates/%E2%84%AARW", "three letters"),
            ("/v1/rates?symbols=USD,%CC%81EUR", "symbols item"),
            ("/v1/convert?from=USD&to=EUR&amount=1%EF%BC%91", "plain decimal"),
            ("/v1/bpi/currentprice/US%E2%80%8DD.json", "three letters"),
        ]

        @Test func everyReproductionIsA400AndTheProcessKeepsServing() async throws {
            try await FullStack.run { s in
                let keepAlive = try s.connect()
                defer { keepAlive.close() }
                for (target, expected) in Self.reproductions {
                    try await keepAlive.request("GET", target)
                    let r = try await keepAlive.readResponse()
                    // Under /books/v1/ the problem comes in Google's envelope, with the same message.
                    let detail = target.hasPrefix("/books/v1/") ? r.expectGoogleError(400) : r.expectProblem(400)
                    #expect(detail.contains(expected), "\(target): \(detail)")
                    #expect(r.header("Cache-Control") == "no-store", "\(target)")
                    #expect(r.header("Connection") != "close", "\(target): the connection should stay open")
                }
                // In a batch, the entry is the 400 (the batch itself is well-formed).
                try await keepAlive.request("GET", "/v1/books?isbn=978076790817%CC%81,\(F.isbn13)")
                let batch = try await keepAlive.readResponse()
                #expect(batch.status == 200, "\(batch.text)")
                guard case let .object(results)? = batch.json?["results"],
                      case let .object(entry)? = results["978076790817\u{301}"],
                      case let .object(problem)? = entry["error"] else {
                    Issue.record("no per-entry error: \(batch.text)"); return
                }
                #expect(problem["status"] == .number("400"))
                #expect(results[F.isbn13] != nil)
                // The same connection, and a new one, still get real answers.
                try await keepAlive.request("GET", "/v1/books/\(F.isbn13)")
                #expect(try await keepAlive.readResponse().status == 200)
                #expect(try await s.get("/healthz").status == 200)
                #expect(try await s.get("/v1/rates/USD").status == 200)
            }
        }

        @Test func twoAuthorizationFieldsAreA400() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/admin/cache", headers: [
                    "Authorization: Bearer \(FullStack.adminToken)", "Authorization: Bearer wrong-token",
                ])
                #expect(r.expectProblem(400).contains("Authorization"))
                // Given once, the same token is accepted; the process is unharmed.
                let once = try await s.get("/admin/cache", headers: ["Authorization: Bearer \(FullStack.adminToken)"])
                #expect(once.status == 200, "\(once.text)")
                // On a public route too: the rule is the server's, not the admin API's.
                let rates = try await s.get("/v1/rates", headers: ["Authorization: Bearer a", "authorization: Bearer b"])
                rates.expectProblem(400)
            }
        }

        @Test func aBatchOfTwentyOneRepeatedISBNsIsA400() async throws {
            try await FullStack.run { s in
                let list = Array(repeating: F.isbn13, count: 21).joined(separator: ",")
                let r = try await s.get("/v1/books?isbn=\(list)")
                #expect(r.expectProblem(400).contains("got 21"))
                #expect(s.count(F.googlePath) == 0)
                let twenty = try await s.get("/v1/books?isbn=" + Array(repeating: F.isbn13, count: 20).joined(separator: ","))
                #expect(twenty.status == 200, "\(twenty.text)")
            }
        }

        @Test func aZeroOrNegativeUpstreamRateIsA502ForThatCurrencyOnly() async throws {
            try await FullStack.run { s in
                s.stub.route(F.coinbasePath, .json(#"{"data":{"currency":"BTC","rates":{"USD":"0","EUR":"-5","GBP":"71000.5"}}}"#))
                let usd = try await s.get("/v1/rates/USD")
                let detail = usd.expectProblem(502)
                #expect(detail.contains("coinbase") && detail.contains("data.rates.USD"), "\(detail)")
                let eur = try await s.get("/v1/convert?from=EUR&to=GBP")
                #expect(eur.expectProblem(502).contains("data.rates.EUR"))
                let table = try await s.get("/v1/rates")
                #expect(table.status == 200, "\(table.text)")
                #expect(table.json?["source"] == .string("coinbase"))
                guard case let .object(rates)? = table.json?["rates"] else { Issue.record("no rates"); return }
                #expect(rates.keys.sorted() == ["BTC", "GBP"])
                #expect(try await s.get("/v1/rates/XYZ").status == 404)
            }
        }
    }
}
