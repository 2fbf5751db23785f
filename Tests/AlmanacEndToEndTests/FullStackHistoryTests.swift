import Foundation
import HTTPClientTestSupport
import Rates
import Testing
import TestSupport
@testable import Almanac

/// The history endpoints over real sockets against the loopback history stubs (exact upstream
/// shapes), with every value checked against the stub's series, and forex-python's
/// `BtcConverter` driving almanac from Python.
extension FullStackTests {
    @Suite struct HistoryAPI {
        static var yesterday: Int64 { HistoryDay.yesterday(unixSeconds: Int64(Date().timeIntervalSince1970)) }

        /// A close as almanac writes it: the stub's two-decimal text without trailing zeros.
        static func closeJSON(_ day: Int64) -> String { closeJSON("bitstamp", "USD", day) }

        static func closeJSON(_ provider: String, _ currency: String, _ day: Int64) -> String {
            var text = HistoryStubSeries.closeText(provider, currency, day: day)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text
        }

        @Test func coinDeskCloseExactShapeValuesAndCaching() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05")
                #expect(r.status == 200)
                #expect(r.header("Content-Type") == "application/json; charset=utf-8")
                let jan1 = HistoryDay.parse("2024-01-01")!
                var bpi = ""
                for day in jan1...(jan1 + 4) { bpi += (bpi.isEmpty ? "" : ",") + "\"\(HistoryDay.text(day))\":\(Self.closeJSON(day))" }
                #expect(r.text.hasPrefix("{\"bpi\":{\(bpi)},\"disclaimer\":\""))
                #expect(r.text.contains("BPI value data returned as USD.\",\"time\":{\"updated\":\""))
                #expect(r.keys == ["bpi", "disclaimer", "time"])
                #expect(FullStack.keys(r.json?["time"]) == ["updated", "updatedISO"])
                #expect(r.header("X-Cache") == "MISS")
                let maxAge = Int(r.header("Cache-Control")?.split(separator: "=").last ?? "") ?? 0
                #expect(maxAge > 25 * 86_400, "a past range is immutable: \(r.header("Cache-Control") ?? "")")
                let etag = try #require(r.header("ETag"))
                #expect(s.count("/api/v2/ohlc/btcusd/") == 1)

                let again = try await s.get("/v1/bpi/historical/close.json?start=2024-01-02&end=2024-01-03")
                #expect(again.header("X-Cache") == "HIT")
                #expect(again.json?["bpi"] == .object(["2024-01-02": .number(Self.closeJSON(jan1 + 1)), "2024-01-03": .number(Self.closeJSON(jan1 + 2))]))
                #expect(s.count("/api/v2/ohlc/btcusd/") == 1)
                let notModified = try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05", headers: ["If-None-Match: \(etag)"])
                #expect(notModified.status == 304)
            }
        }

        @Test func coinDeskDefaultsCurrenciesAndRefusals() async throws {
            try await FullStack.run { s in
                let y = Self.yesterday
                // Read before the requests: the server's seconds to midnight can only be fewer.
                // (Read after them, a second turning in between made the server's one more.)
                let midnight = (y + 2) * 86_400 - Int64(Date().timeIntervalSince1970)
                let defaults = try await s.get("/v1/bpi/historical/close.json")
                #expect(defaults.status == 200)
                guard case let .object(days)? = defaults.json?["bpi"] else { Issue.record("no bpi"); return }
                #expect(days.count == 31)
                #expect(days[HistoryDay.text(y)] == .number(Self.closeJSON(y)))
                #expect(days[HistoryDay.text(y - 30)] == .number(Self.closeJSON(y - 30)))
                let maxAge = Int64(defaults.header("Cache-Control")?.split(separator: "=").last ?? "") ?? .max
                #expect(maxAge <= midnight, "the default range moves at midnight")

                let single = try await s.get("/v1/bpi/historical/close.json?for=yesterday&currency=gbp")
                #expect(single.json?["bpi"] == .object([HistoryDay.text(y): .number(Self.closeJSON("bitstamp", "GBP", y))]))
                let clamped = try await s.get("/v1/bpi/historical/close.json?start=\(HistoryDay.text(y - 1))&end=2999-01-01&index=USD")
                #expect(FullStack.keys(clamped.json?["bpi"]) == [HistoryDay.text(y - 1), HistoryDay.text(y)])
                #expect((Int64(clamped.header("Cache-Control")?.split(separator: "=").last ?? "") ?? .max) <= midnight)
                // The same days asked explicitly never change: a long max-age.
                let explicit = try await s.get("/v1/bpi/historical/close.json?start=\(HistoryDay.text(y - 1))&end=\(HistoryDay.text(y))")
                #expect(explicit.json?["bpi"] == clamped.json?["bpi"])
                #expect((Int64(explicit.header("Cache-Control")?.split(separator: "=").last ?? "") ?? 0) > 25 * 86_400)

                let xbt = try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-02&currency=XBT")
                #expect(xbt.json?["bpi"] == .object(["2024-01-01": .number("1"), "2024-01-02": .number("1")]))
                #expect(xbt.text.contains("returned as XBT."))
                let jpy = try await s.get("/v1/bpi/historical/close.json?start=2024-01-06&end=2024-01-06&currency=JPY")
                // Saturday: Friday's ECB rate × that day's BTC-USD close, four decimals.
                let saturday = HistoryDay.parse("2024-01-06")!
                let rate = HistoryStubSeries.fxTenThousandths("JPY", day: saturday - 1)! * 10_000
                let value = HistoryFixed.product(HistoryStubSeries.closeCents("bitstamp", "USD", day: saturday) * 1_000_000, rate)!
                var expected: [UInt8] = []
                HistoryFixed.append(value, to: &expected)
                #expect(jpy.json?["bpi"]?["2024-01-06"] == .number(String(decoding: expected, as: UTF8.self)))

                for (target, sentence) in [
                    ("?currency=ARS", "Sorry, that currency was not found"),
                    ("?start=2010-07-16&end=2010-08-01", "Sorry, the CoinDesk BPI only covers data from 2010-07-17 onwards."),
                    ("?start=2024-02-01&end=2024-01-01", "Sorry, but your specified end date is before your start date."),
                    ("?start=2999-01-01&end=2999-02-01", "Sorry, but your specified end date is before your start date."),
                ] {
                    let r = try await s.get("/v1/bpi/historical/close.json" + target)
                    #expect(r.status == 404)
                    #expect(r.header("Content-Type") == "text/plain; charset=utf-8")
                    #expect(r.text == sentence)
                    #expect(r.header("Cache-Control") == "no-store")
                }
                #expect(try await s.get("/v1/bpi/historical/close.json?start=2024-01-01").expectProblem(400).contains("end"))
                // Codes are ASCII: `uſd` (U+017F) upper-cases to USD in Unicode, but is no index.
                #expect(try await s.get("/v1/bpi/historical/close.json?index=u%C5%BFd").expectProblem(400).contains("index"))
                #expect(try await s.get("/v1/bpi/historical/close.json?for=yesterday&index=usd").status == 200)
                #expect(try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-13-01").expectProblem(400).contains("end"))
                // Odd bytes in any parameter: an answer, never a crash.
                #expect(try await s.get("/v1/bpi/historical/close.json?start=%FF%FE&end=2024-01-01").expectProblem(400).contains("start"))
                #expect(try await s.get("/v1/bpi/historical/close.json?start=2024-01-0%CC%81&end=2024-01-02").expectProblem(400).contains("start"))
                #expect(try await s.get("/v1/bpi/historical/close.json?currency=%E2%82%AC").status == 404)
                #expect(try await s.get("/v1/rates/history?start=2024-01-01&end=2024-01-02&base=%00%01%02").expectProblem(400).contains("base"))
                let head = try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-02", method: "HEAD")
                #expect(head.status == 200 && head.body.isEmpty)
                // Days before the first exchange day are absent, not an error.
                let early = try await s.get("/v1/bpi/historical/close.json?start=2011-08-16&end=2011-08-19")
                #expect(FullStack.keys(early.json?["bpi"]) == ["2011-08-18", "2011-08-19"])
            }
        }

        @Test func ownHistoryAndDatedRates() async throws {
            try await FullStack.run { s in
                let jan1 = HistoryDay.parse("2024-01-01")!
                let r = try await s.get("/v1/rates/history?start=2024-01-01&end=2024-01-02&symbols=usd,EUR")
                #expect(r.status == 200)
                #expect(r.text.hasPrefix(#"{"base":"BTC","start":"2024-01-01","end":"2024-01-02","source":"bitstamp","rates":{"2024-01-01":{"EUR":"#))
                #expect(r.json?["rates"]?["2024-01-02"] == .object(["USD": .number(Self.closeJSON(jan1 + 1)),
                                                                    "EUR": .number(Self.closeJSON("bitstamp", "EUR", jan1 + 1))]))
                let eur = try await s.get("/v1/rates/history?start=2024-01-01&end=2024-01-01&base=EUR&symbols=USD")
                let usdPerEur = Double(HistoryStubSeries.closeCents("bitstamp", "USD", day: jan1)) / Double(HistoryStubSeries.closeCents("bitstamp", "EUR", day: jan1))
                expectClose(eur.json?["rates"]?["2024-01-01"]?["USD"], usdPerEur)
                let all = try await s.get("/v1/rates/history?start=2024-01-03&end=2024-01-03")
                #expect(FullStack.keys(all.json?["rates"]?["2024-01-03"]) == HistoryService.currencies.filter { $0 != "BTC" })
                #expect(all.json?["source"] == .string("bitstamp+frankfurter"))

                #expect(try await s.get("/v1/rates/history?start=2024-01-01").expectProblem(400).contains("end"))
                #expect(try await s.get("/v1/rates/history?start=2024-01-02&end=2024-01-01").expectProblem(400).contains("before"))
                #expect(try await s.get("/v1/rates/history?start=2024-01-01&end=2024-01-02&symbols=ARS").expectProblem(404).contains("ARS"))

                let dated = try await s.get("/v1/rates?date=2024-01-01&symbols=USD")
                #expect(dated.status == 200)
                #expect(dated.keys == ["base", "rates", "source", "updated"])
                #expect(dated.json?["rates"]?["USD"]?["rate"] == .number(Self.closeJSON(jan1)))
                #expect(dated.json?["updated"] == .string("2024-01-02T00:00:00Z"))
                let full = try await s.get("/v1/rates?date=2024-01-01")
                #expect(FullStack.keys(full.json?["rates"]) == HistoryService.currencies)
                #expect(full.json?["source"] == .string("bitstamp+frankfurter"))
                let convert = try await s.get("/v1/convert?from=BTC&to=GBP&amount=2&date=2024-01-01")
                #expect(convert.keys == ["amount", "from", "rate", "result", "source", "to", "updated"])
                #expect(convert.json?["rate"] == .number(Self.closeJSON("bitstamp", "GBP", jan1)))
                expectClose(convert.json?["result"], 2 * Double(HistoryStubSeries.closeCents("bitstamp", "GBP", day: jan1)) / 100)
                #expect(try await s.get("/v1/rates?date=2999-01-01").expectProblem(400).contains("date"))
                #expect(try await s.get("/v1/convert?from=BTC&to=USD&date=2009-01-03").expectProblem(404).contains("2009-01-03"))
                // Without date, the live table as before.
                #expect(try await s.get("/v1/rates?symbols=USD").json?["rates"]?["USD"]?["rate"] == .number("91234.56"))
            }
        }

        /// bitstamp answering 200 with no candles, then with candles for other dates: each is a
        /// provider failure (coinbase-exchange is down too, so 502), nothing is stored, and once
        /// bitstamp answers properly the days are served, never `{"bpi":{}}`.
        @Test func anEmptyOrMisplacedAnswerIsAFailureAndNotStored() async throws {
            try await FullStack.run { s in
                let calls = Locked(0)
                s.stub.route("/api/v2/ohlc/btcusd/", handler: { request in
                    switch calls.increment() {
                    case 1: return .json(#"{"data":{"pair":"BTC/USD","ohlc":[]}}"#)
                    case 2: return .json(#"{"data":{"pair":"BTC/USD","ohlc":[{"timestamp":"1577836800","close":"7200.17"}]}}"#)
                    default: return HistoryStub.bitstamp(request)
                    }
                })
                s.stub.setFault(.status(503), for: "/products/BTC-USD/candles")
                let target = "/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05"
                let empty = try await s.get(target)
                let emptyDetail = empty.expectProblem(502)
                #expect(emptyDetail.contains("bitstamp") && emptyDetail.contains("no close for the days asked"), "\(emptyDetail)")
                #expect(empty.header("Cache-Control") == "no-store")
                let misplaced = try await s.get(target)
                let misplacedDetail = misplaced.expectProblem(502)
                #expect(misplacedDetail.contains("2020-01-01, outside the days asked"), "\(misplacedDetail)")
                let ok = try await s.get(target)
                #expect(ok.status == 200)
                #expect(FullStack.keys(ok.json?["bpi"]) == ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"])
                #expect(calls.value == 3)
            }
        }

        /// coinbase-exchange lacking days bitstamp holds: a failure while bitstamp is left to
        /// ask, so the days come from bitstamp rather than being stored absent.
        @Test func anAnswerWithGapsFallsThroughToTheNextExchange() async throws {
            try await FullStack.run(configure: { $0.history.providers = ["coinbase-exchange", "bitstamp"] }) { s in
                let jan1 = HistoryDay.parse("2024-01-01")!
                let candles = [jan1 + 4, jan1 + 2, jan1].map { day in
                    let close = HistoryStubSeries.closeText("coinbase-exchange", "USD", day: day)
                    return "[\(day * 86_400),\(close),\(close),\(close),\(close),3.25]"
                }
                s.stub.route("/products/BTC-USD/candles", .json("[" + candles.joined(separator: ",") + "]"))
                let r = try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05")
                #expect(r.status == 200)
                #expect(r.json?["bpi"]?["2024-01-02"] == .number(Self.closeJSON("bitstamp", "USD", jan1 + 1)))
                #expect(r.json?["bpi"]?["2024-01-01"] == .number(Self.closeJSON("bitstamp", "USD", jan1)))
                #expect(s.count("/products/BTC-USD/candles") == 1)
                #expect(s.count("/api/v2/ohlc/btcusd/") == 1)
            }
        }

        /// A day neither exchange has (2024-01-03 here): bitstamp's answer lacks it, so
        /// coinbase-exchange is asked; it lacks it too and is the last, so the block is stored
        /// with that day absent and the other days are served.
        @Test func aDayNoExchangeHasIsStoredAbsent() async throws {
            try await FullStack.run { s in
                let jan3 = HistoryDay.parse("2024-01-03")!
                let seconds = String(jan3 * 86_400)
                s.stub.route("/api/v2/ohlc/btcusd/", handler: { request in
                    var answer = HistoryStub.bitstamp(request)
                    let text = String(decoding: answer.body, as: UTF8.self)
                    let candles = text.components(separatedBy: "},{").filter { !$0.contains(#""timestamp":"\#(seconds)""#) }
                    answer.body = Array(candles.joined(separator: "},{").utf8)
                    return answer
                })
                s.stub.route("/products/BTC-USD/candles", handler: { request in
                    var answer = HistoryStub.coinbaseExchange(request)
                    let text = String(decoding: answer.body, as: UTF8.self)
                    let candles = text.components(separatedBy: "],[").filter { !$0.contains(seconds + ",") }
                    answer.body = Array(candles.joined(separator: "],[").utf8)
                    return answer
                })
                let target = "/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05"
                let r = try await s.get(target)
                #expect(r.status == 200)
                #expect(FullStack.keys(r.json?["bpi"]) == ["2024-01-01", "2024-01-02", "2024-01-04", "2024-01-05"])
                #expect(r.json?["bpi"]?["2024-01-02"] == .number(Self.closeJSON("coinbase-exchange", "USD", jan3 - 1)))
                // coinbase-exchange's block is stored; bitstamp's answer with a gap never is, so
                // bitstamp is asked again (its failure is not cached, like any provider's).
                let again = try await s.get(target)
                #expect(again.json?["bpi"] == r.json?["bpi"])
                #expect(s.count("/api/v2/ohlc/btcusd/") == 2)
                #expect(s.count("/products/BTC-USD/candles") == 1)
            }
        }

        @Test func upstreamFailuresAreProblemsNamingEveryProvider() async throws {
            try await FullStack.run { s in
                s.stub.setFault(.status(503), for: "/api/v2/ohlc/btcusd/")
                s.stub.route("/products/BTC-USD/candles", .json(#"{"message":"not candles"}"#))
                let r = try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05")
                let detail = r.expectProblem(502)
                #expect(detail.contains("bitstamp") && detail.contains("HTTP 503"), "\(detail)")
                #expect(detail.contains("coinbase-exchange") && detail.contains("not a JSON array"), "\(detail)")
                #expect(detail.contains("(request id \(r.header("X-Request-ID") ?? "?"))"), "\(detail)")
                #expect(r.header("Cache-Control") == "no-store")
                #expect(!detail.contains("127.0.0.1"))
                // Errors are not cached: once bitstamp answers, so does almanac.
                s.stub.setFault(nil, for: "/api/v2/ohlc/btcusd/")
                #expect(try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05").status == 200)
            }
        }

        @Test func concurrentOverlappingColdRangesShareUpstreamRequests() async throws {
            try await FullStack.run { s in
                let first = HistoryDay.parse("2016-03-01")!
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for n in 0..<16 {
                        let start = first + Int64(n * 97), end = start + 1_500
                        group.addTask {
                            try await s.get("/v1/bpi/historical/close.json?start=\(HistoryDay.text(start))&end=\(HistoryDay.text(end))").status
                        }
                    }
                    for try await status in group { #expect(status == 200) }
                }
                let plan = BitstampHistoryProvider().plan
                let blocks = plan.indexes(covering: first...(first + 15 * 97 + 1_500)).count
                #expect(s.count("/api/v2/ohlc/btcusd/") == blocks, "one request per block, shared by every range that needs it")
            }
        }

        @Test func forexPythonBtcConverterMakesAllEightCalls() async throws {
            try await FullStack.run { s in try await Self.runBtcConverter(s, latestUSD: "91234.56") }
        }

        /// Runs forex-python's `BtcConverter` (Tests/forex/btc_converter_e2e.py) against `s`:
        /// its latest USD price must be `latestUSD`, its history the stub's closes.
        static func runBtcConverter(_ s: FullStack, latestUSD: String) async throws {
            let day = Self.yesterday - 10
            let listStart = day - 6
            var list: [String] = []
            for d in listStart...day { list.append("\"\(HistoryDay.text(d))\":\(Self.closeJSON(d))") }
            let expected = """
            {"latest_usd":\(latestUSD),"day":"\(HistoryDay.text(day))","close_usd":\(Self.closeJSON(day)),
             "close_eur":\(Self.closeJSON("bitstamp", "EUR", day)),"list_start":"\(HistoryDay.text(listStart))",
             "list_end":"\(HistoryDay.text(day))","list_usd":{\(list.joined(separator: ","))}}
            """
            let script = repositoryRoot.appendingPathComponent("Tests/forex/btc_converter_e2e.py")
            let result = try await PythonScript.run(script, environment: [
                "ALMANAC_BASE_URL": "http://127.0.0.1:\(s.port)", "EXPECTED_JSON": expected,
            ], timeout: 90)
            #expect(result.status == 0, "forex-python (pip install forex-python; make test installs it):\n\(result.output)")
            #expect(result.output.contains("8 calls answered by almanac"), "\(result.output)")
        }
    }
}
