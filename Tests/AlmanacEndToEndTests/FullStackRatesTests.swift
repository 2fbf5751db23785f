import Base
import Foundation
import HTTPClientTestSupport
import Rates
import Testing
@testable import Almanac

/// Every full-stack suite runs one at a time: they share two cores with the rest of the test
/// run, and the expiry tests wait on real clocks. Each test (nested suites included) has five
/// minutes: a hang fails with its name instead of stalling the run.
@Suite(.serialized, .timeLimit(.minutes(5))) struct FullStackTests {}

typealias F = FullStackFixtures

/// The number a JSON value holds, as a Double (for derived cross rates, compared with a
/// relative tolerance; rates with base BTC are compared as exact text instead).
func number(_ value: JSONValue?) -> Double? {
    guard case let .number(text)? = value else { return nil }
    return Double(text)
}

func expectClose(_ value: JSONValue?, _ expected: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let actual = number(value) else {
        Issue.record("not a number: \(String(describing: value))", sourceLocation: sourceLocation)
        return
    }
    #expect(abs(actual - expected) <= abs(expected) * 1e-12, "\(actual) ≠ \(expected)", sourceLocation: sourceLocation)
}

/// `updated`: ISO 8601 UTC to the second.
func isISO8601UTC(_ value: JSONValue?) -> Bool {
    guard case let .string(text)? = value else { return false }
    return text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression) != nil
}

extension FullStackTests {
    /// The rates endpoints over real sockets, values computed from the stub's numbers.
    @Suite struct RatesAPI {
        static let jsonType = "application/json; charset=utf-8"

        @Test func ratesWithDefaultBase() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/v1/rates")
                #expect(r.status == 200)
                #expect(r.header("Content-Type") == Self.jsonType)
                #expect(r.keys == ["base", "rates", "source", "updated"])
                #expect(r.json?["base"] == .string("BTC"))
                #expect(r.json?["source"] == .string("coinbase"))
                #expect(isISO8601UTC(r.json?["updated"]))
                #expect(FullStack.keys(r.json?["rates"]) == ["BTC", "ETH", "EUR", "GBP", "JPY", "USD"])
                #expect(r.json?["rates"]?["USD"] == .object(["code": .string("USD"), "name": .string("United States Dollar"),
                                                            "symbol": .string("$"), "rate": .number("91234.56")]))
                #expect(r.json?["rates"]?["JPY"]?["rate"] == .number("13700000"))
                #expect(r.json?["rates"]?["BTC"]?["rate"] == .number("1"))
                #expect(s.count(F.coinbasePath) == 1)
                #expect(s.count(F.coingeckoPath) == 0)
                // The request the provider made, as the stub saw it (docs/rates.md "Providers and failover").
                let seen = try #require(s.stub.requests.first)
                #expect(seen.target == "/v2/exchange-rates?currency=BTC")
                #expect(seen.headers["user-agent"]?.hasPrefix("almanac/") == true)
            }
        }

        @Test func ratesWithBaseAndSymbols() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/v1/rates?base=EUR&symbols=USD,GBP")
                #expect(r.status == 200)
                #expect(r.json?["base"] == .string("EUR"))
                #expect(FullStack.keys(r.json?["rates"]) == ["GBP", "USD"])
                #expect(FullStack.keys(r.json?["rates"]?["USD"]) == ["code", "name", "rate", "symbol"])
                expectClose(r.json?["rates"]?["USD"]?["rate"], 91234.56 / 84000.12)
                expectClose(r.json?["rates"]?["GBP"]?["rate"], 72000.5 / 84000.12)
                #expect(r.json?["rates"]?["GBP"]?["symbol"] == .string("£"))
            }
        }

        @Test func oneRateWithBase() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/v1/rates/USD?base=EUR")
                #expect(r.status == 200)
                #expect(r.header("Content-Type") == Self.jsonType)
                #expect(r.keys == ["base", "code", "name", "rate", "source", "symbol", "updated"])
                #expect(r.json?["base"] == .string("EUR"))
                #expect(r.json?["code"] == .string("USD"))
                #expect(r.json?["name"] == .string("United States Dollar"))
                #expect(r.json?["symbol"] == .string("$"))
                #expect(r.json?["source"] == .string("coinbase"))
                #expect(isISO8601UTC(r.json?["updated"]))
                expectClose(r.json?["rate"], 91234.56 / 84000.12)
            }
        }

        @Test func convert() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/v1/convert?from=EUR&to=USD&amount=2.5")
                #expect(r.status == 200)
                #expect(r.keys == ["amount", "from", "rate", "result", "source", "to", "updated"])
                #expect(r.json?["from"] == .string("EUR"))
                #expect(r.json?["to"] == .string("USD"))
                #expect(r.json?["amount"] == .number("2.5"))
                expectClose(r.json?["rate"], 91234.56 / 84000.12)
                expectClose(r.json?["result"], 2.5 * 91234.56 / 84000.12)
            }
        }

        @Test func currencies() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/v1/currencies")
                #expect(r.status == 200)
                #expect(r.header("Content-Type") == Self.jsonType)
                #expect(r.keys == ["BTC", "ETH", "EUR", "GBP", "JPY", "USD"])
                #expect(r.json?["EUR"] == .object(["code": .string("EUR"), "name": .string("Euro"), "symbol": .string("€")]))
                #expect(r.json?["ETH"]?["symbol"] == .null)
            }
        }

        @Test func coinDeskCompatibleEndpoints() async throws {
            try await FullStack.run { s in
                let all = try await s.get("/v1/bpi/currentprice.json")
                #expect(all.status == 200)
                #expect(all.header("Content-Type") == Self.jsonType)
                #expect(all.keys == ["bpi", "chartName", "disclaimer", "time"])
                #expect(FullStack.keys(all.json?["time"]) == ["updated", "updatedISO", "updateduk"])
                if case let .string(updated)? = all.json?["time"]?["updated"] {
                    #expect(updated.range(of: #"^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}:\d{2} UTC$"#, options: .regularExpression) != nil, "\(updated)")
                } else {
                    Issue.record("no time.updated")
                }
                #expect(FullStack.keys(all.json?["bpi"]) == ["EUR", "GBP", "USD"])
                #expect(all.json?["bpi"]?["USD"] == .object([
                    "code": .string("USD"), "symbol": .string("&#36;"), "rate": .string("91,234.5600"),
                    "description": .string("United States Dollar"), "rate_float": .number("91234.56")]))
                #expect(all.json?["bpi"]?["GBP"]?["symbol"] == .string("&pound;"))
                #expect(all.json?["bpi"]?["EUR"]?["rate"] == .string("84,000.1200"))

                let jpy = try await s.get("/v1/bpi/currentprice/JPY.json")
                #expect(jpy.status == 200)
                #expect(FullStack.keys(jpy.json?["bpi"]) == ["JPY", "USD"])
                #expect(jpy.json?["bpi"]?["JPY"]?["rate"] == .string("13,700,000.0000"))
                #expect(jpy.json?["bpi"]?["JPY"]?["rate_float"] == .number("13700000"))

                let supported = try await s.get("/v1/bpi/supported-currencies.json")
                #expect(supported.status == 200)
                guard case let .array(list)? = supported.json else {
                    Issue.record("supported-currencies is not an array: \(supported.text)")
                    return
                }
                #expect(list.compactMap { if case let .string(c)? = $0["currency"] { c } else { nil } }
                    == ["BTC", "ETH", "EUR", "GBP", "JPY", "USD", "XBT"])
                #expect(list.allSatisfy { FullStack.keys($0) == ["country", "currency"] })
                // One table serves every endpoint: one upstream request in all.
                #expect(s.count(F.coinbasePath) == 1)
            }
        }

        @Test func failoverToCoinGecko() async throws {
            try await FullStack.run { s in
                s.stub.setFault(.status(503), for: F.coinbasePath)
                let r = try await s.get("/v1/rates")
                #expect(r.status == 200)
                #expect(r.json?["source"] == .string("coingecko"))
                #expect(r.json?["rates"]?["USD"]?["rate"] == .number("90000.5"))
                #expect(r.json?["rates"]?["GBP"]?["rate"] == .number("71000"))
                #expect(s.count(F.coinbasePath) == 1)
                #expect(s.count(F.coingeckoPath) == 1)
                let seen = try #require(s.stub.requests.last)
                #expect(seen.path == F.coingeckoPath)
                #expect(seen.query?.hasPrefix("ids=bitcoin&vs_currencies=usd,") == true)
            }
        }

        @Test func validation() async throws {
            try await FullStack.run { s in
                let short = try await s.get("/v1/rates/US")
                let shortDetail = short.expectProblem(400)
                #expect(shortDetail.contains("\"US\""), "\(shortDetail)")
                #expect(short.header("Cache-Control") == "no-store")

                let amount = try await s.get("/v1/convert?from=EUR&to=USD&amount=abc")
                let amountDetail = amount.expectProblem(400)
                #expect(amountDetail.contains("amount") && amountDetail.contains("abc"), "\(amountDetail)")

                let unknown = try await s.get("/v1/rates/ZZZ")
                let unknownDetail = unknown.expectProblem(404)
                #expect(unknownDetail.contains("ZZZ"), "\(unknownDetail)")
                #expect(unknown.header("Cache-Control") == "no-store")
                #expect(unknown.header("X-Cache") == nil)
                // Malformed input never reaches the upstream; the unknown code needed the table.
                #expect(s.count(F.coinbasePath) == 1)
            }
        }
    }
}
