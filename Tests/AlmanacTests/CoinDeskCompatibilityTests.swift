import Foundation
import HTTP1
import Rates
import TestSupport
import Testing
@testable import Almanac

/// The CoinDesk-compatible endpoints against answers the real CoinDesk gave
/// (`CoinDeskRecordedAnswers`): fed the same data, almanac writes the same bytes, but for the
/// disclaimer. Byte equality checks key order at every level, field sets and formats at once.
@Suite struct CoinDeskCompatibilityTests {
    /// A harness whose only provider is a CoinDesk mirror answering `recorded`.
    private func mirror(_ recorded: String) -> RatesHarness {
        let h = RatesHarness(providers: ["coindesk"])
        h.script("coindesk", .body(recorded))
        return h
    }

    @Test(arguments: [("AUD", CoinDeskRecordedAnswers.aud), ("USD", CoinDeskRecordedAnswers.usd),
                      ("XBT", CoinDeskRecordedAnswers.xbt), ("BTC", CoinDeskRecordedAnswers.btc)])
    func perCurrencyAnswerIsCoinDesksByteForByte(code: String, recorded: String) async throws {
        let r = await mirror(recorded).get("/v1/bpi/currentprice/\(code).json").response
        #expect(r.status == .ok)
        #expect(r.text == CoinDeskRecordedAnswers.asAlmanac(recorded))
        let json = try OrderedJSON(r.body)
        #expect(json.keys == ["time", "disclaimer", "bpi"])
        #expect(json["time"]?.keys == ["updated", "updatedISO", "updateduk"])
        #expect(json["bpi"]?.keys == (code == "USD" ? ["USD"] : ["USD", code]))
        for entry in json["bpi"]?.keys ?? [] {
            #expect(json["bpi"]?[entry]?.keys == ["code", "rate", "description", "rate_float"])
        }
    }

    @Test(arguments: [CoinDeskRecordedAnswers.headlineSummer, CoinDeskRecordedAnswers.headlineWinter])
    func currentPriceAnswerIsCoinDesksByteForByte(recorded: String) async throws {
        let r = await mirror(recorded).get("/v1/bpi/currentprice.json").response
        #expect(r.text == CoinDeskRecordedAnswers.asAlmanac(recorded))
        let json = try OrderedJSON(r.body)
        #expect(json.keys == ["time", "disclaimer", "chartName", "bpi"])
        #expect(json["bpi"]?.keys == ["USD", "GBP", "EUR"])
        #expect(json["bpi"]?["GBP"]?.keys == ["code", "symbol", "rate", "description", "rate_float"])
    }

    /// The JPY figure of a 2021 answer: seven digits before the point, grouped.
    @Test func largeRatesAreGroupedAsCoinDeskDid() async throws {
        let h = RatesHarness()
        h.script("coinbase", .body(#"{"data":{"currency":"BTC","rates":{"USD":"45169.8812","JPY":"4952883.9836"}}}"#))
        let r = await h.get("/v1/bpi/currentprice/JPY.json").response
        #expect(r.text == #"{"time":{"updated":"Sep 28, 2015 01:23:00 UTC","updatedISO":"2015-09-28T01:23:00+00:00","updateduk":"Sep 28, 2015 at 02:23 BST"},"#
            + #""disclaimer":"\#(CoinDeskBPIRenderer.disclaimer(source: "coinbase"))","#
            + #""bpi":{"USD":{"code":"USD","rate":"45,169.8812","description":"United States Dollar","rate_float":45169.8812},"#
            + #""JPY":{"code":"JPY","rate":"4,952,883.9836","description":"Japanese Yen","rate_float":4952883.9836}}}"#)
    }

    /// From a table that has no XBT of its own (every real provider's): XBT is bitcoin, in any case.
    @Test func xbtIsBitcoinUnderItsOwnCode() async throws {
        let h = RatesHarness()
        for target in ["/v1/bpi/currentprice/XBT.json", "/v1/bpi/currentprice/xbt.json"] {
            let json = try OrderedJSON(await h.get(target).response.body)
            #expect(json["bpi"]?.keys == ["USD", "XBT"])
            #expect(json["bpi"]?["XBT"] == .members(["code": .string("XBT"), "rate": .string("1.0000"),
                                                    "description": .string("Bitcoin"), "rate_float": .number("1")]))
        }
        let btc = try OrderedJSON(await h.get("/v1/bpi/currentprice/BTC.json").response.body)
        #expect(btc["bpi"]?["BTC"]?["rate"] == .string("1.0000"))
        // almanac's own endpoints keep to real codes.
        #expect(await h.get("/v1/rates/XBT").response.status == .notFound)
    }

    /// Same entries as CoinDesk's list wherever both know the code; sorted; BTC and XBT both.
    @Test func supportedCurrenciesMatchCoinDesksEntries() async throws {
        let h = RatesHarness()
        let ours = try OrderedJSON(await h.get("/v1/bpi/supported-currencies.json").response.body)
        let recorded = try OrderedJSON(CoinDeskRecordedAnswers.supportedCurrenciesExcerpt)
        guard case let .array(entries) = ours, case let .array(reference) = recorded else {
            Issue.record("not arrays")
            return
        }
        let codes = entries.compactMap { $0["currency"]?.text }
        #expect(codes == codes.sorted())
        #expect(codes.contains("BTC") && codes.contains("XBT"))
        #expect(entries.allSatisfy { $0.keys == ["currency", "country"] })
        var compared = 0
        for entry in reference {
            guard let match = entries.first(where: { $0["currency"] == entry["currency"] }) else { continue }
            #expect(match == entry)
            compared += 1
        }
        #expect(compared == 6) // BTC, EUR, GBP, JPY, USD, XBT
    }
}

extension FullStackTests {
    /// What the coindeskr R package's `get_current_price(currency, only_price = TRUE)` does,
    /// step by step, against the real server: check the code is in `supported-currencies.json`
    /// (`currency %in% currency_list$currency`), fetch `currentprice/{CODE}.json`, take the
    /// second field of the first `bpi` entry for USD and of the second entry otherwise
    /// (`parsed$bpi[[2]][2]`: jsonlite keeps member order), drop the commas and read a number
    /// (`as.numeric(gsub(',', '', …))`). With a `symbol` as second field it would read `&yen;`
    /// and return NA.
    @Suite struct CoinDeskPositionalClients {
        static func coindeskrCurrentPrice(_ s: FullStack, currency: String) async throws -> Double? {
            let list = try OrderedJSON(try await s.get("/v1/bpi/supported-currencies.json").body)
            guard case let .array(entries) = list, entries.contains(where: { $0["currency"]?.text == currency }) else {
                Issue.record("\(currency) is not in supported-currencies.json")
                return nil
            }
            let answer = try await s.get("/v1/bpi/currentprice/\(currency).json")
            #expect(answer.status == 200)
            let parsed = try OrderedJSON(answer.body)
            let entry = parsed["bpi"]?[position: currency == "USD" ? 0 : 1]
            guard let text = entry?[position: 1]?.text else { return nil }
            return Double(text.replacingOccurrences(of: ",", with: ""))
        }

        @Test func coindeskrReadsTheRateByPosition() async throws {
            try await FullStack.run { s in
                let expected: [(String, Double)] = [("USD", 91234.56), ("JPY", 13_700_000), ("EUR", 84000.12), ("XBT", 1), ("BTC", 1)]
                for (currency, rate) in expected {
                    let read = try await Self.coindeskrCurrentPrice(s, currency: currency)
                    #expect(read == rate, "\(currency)")
                }
            }
        }
    }
}
