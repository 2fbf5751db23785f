import Base
import Foundation
import HTTPClient
import Testing
@testable import Rates

/// An upstream rate that is not a positive finite number makes that one currency unavailable
/// from that provider (a 502 naming provider and field when asked for); the rest is served.
@Suite struct UnavailableRateTests {
    func coinbase(_ rates: String) throws -> RateTable {
        try CoinbaseProvider(now: { 0 }).decode(try JSONParser.parse(Array(#"{"data":{"rates":{\#(rates)}}}"#.utf8)), fetchedAt: 0)
    }

    @Test(arguments: [
        (#""0""#, "is not a positive number"),
        (#""-5""#, "is not a positive number"),
        (#""0.000""#, "is not a positive number"),
        (#""NaN""#, "is not a decimal number"),
        (#""1,5""#, "is not a decimal number"),
        (#""1\u0301""#, "is not a decimal number"),
        (#""\u0661""#, "is not a decimal number"),
        (#""""#, "is not a decimal number"),
        (#"{"v":1}"#, "is not a decimal string (got an object)"),
        (#""1e999""#, "is not a decimal number"),
        (#""1e100""#, "is out of range (1e-30 to 1e30)"),
        (#""1e-40""#, "is out of range (1e-30 to 1e30)"),
    ])
    func coinbaseValueMakesTheCurrencyUnavailable(value: String, reason: String) throws {
        let table = try coinbase(#""USD":\#(value),"EUR":"84000.1""#)
        #expect(table.codes == ["BTC", "EUR"])
        let error = try #require(table.unavailable["USD"])
        #expect(error.provider == "coinbase")
        #expect(error.kind == .malformed)
        #expect(error.detail == "field data.rates.USD \(reason)")
    }

    @Test func aRequestNamingItIsUnavailableNotUnknown() throws {
        let table = try coinbase(#""USD":"0","EUR":"84000.1","GBP":"71000""#)
        for query: RatesQuery in [.rate(code: "USD", base: "BTC"), .rate(code: "EUR", base: "USD"),
                                  .convert(from: "USD", to: "EUR", amount: 1), .rates(base: "BTC", symbols: ["EUR", "USD"]),
                                  .bpiCurrentPriceIn(code: "USD")] {
            do {
                _ = try RatesRenderer.render(query, table: table)
                Issue.record("\(query) rendered")
            } catch {
                #expect(error.kind == .unavailableCurrency)
                #expect(error.upstream?.provider == "coinbase")
                #expect(error.upstream?.detail == "field data.rates.USD is not a positive number")
            }
        }
        // A code the provider never listed is still unknown (404), and named first.
        do {
            _ = try RatesRenderer.render(.rates(base: "BTC", symbols: ["USD", "XYZ"]), table: table)
            Issue.record("no error")
        } catch {
            #expect(error.kind == .unknownCurrency)
        }
        // The rest of the table is served: listings leave it out.
        let all = try JSONParser.parse(RatesRenderer.render(.rates(base: "EUR", symbols: nil), table: table))
        guard case let .object(rates)? = all["rates"] else { Issue.record("no rates"); return }
        #expect(rates.keys.sorted() == ["BTC", "EUR", "GBP"])
        let headline = try JSONParser.parse(RatesRenderer.render(.bpiCurrentPrice, table: table))
        guard case let .object(bpi)? = headline["bpi"] else { Issue.record("no bpi"); return }
        #expect(bpi.keys.sorted() == ["EUR", "GBP"])
    }

    @Test func aUsableDuplicateWinsWhateverTheOrder() throws {
        for body in [#""usd":"0","USD":"91234.5","EUR":"1""#, #""USD":"91234.5","usd":"0","EUR":"1""#] {
            let table = try coinbase(body)
            #expect(table.rate("USD") == Decimal(string: "91234.5"))
            #expect(table.unavailable.isEmpty)
        }
    }

    @Test func coingeckoAndCoindeskToo() throws {
        let gecko = try CoinGeckoProvider(now: { 0 }).decode(
            JSONParser.parse(Array(#"{"bitcoin":{"usd":0,"eur":-2,"gbp":"12","jpy":13700000}}"#.utf8)), fetchedAt: 0)
        #expect(gecko.codes == ["BTC", "JPY"])
        #expect(gecko.unavailable["USD"]?.detail == "field bitcoin.usd is not a positive number")
        #expect(gecko.unavailable["EUR"]?.detail == "field bitcoin.eur is not a positive number")
        #expect(gecko.unavailable["GBP"]?.detail == "field bitcoin.gbp is not a number (got a string)")
        let desk = try CoinDeskProvider().decode(JSONParser.parse(Array(#"""
            {"time":{"updatedISO":"2024-09-20T06:05:00+00:00"},"bpi":{"USD":{"rate":"1,000.5","rate_float":0},
             "GBP":{"rate":"-1"},"EUR":{"rate_float":84000.5},"JPY":[1]}}
            """#.utf8)))
        #expect(desk.codes == ["BTC", "EUR"])
        #expect(desk.unavailable["USD"]?.detail == "field bpi.USD.rate_float is not a positive number")
        #expect(desk.unavailable["GBP"]?.detail == "field bpi.GBP.rate is not a positive number")
        #expect(desk.unavailable["JPY"]?.detail == "field bpi.JPY is not an object (got an array)")
    }

    @Test func nothingUsableFailsWithTheFirstFieldAtFault() {
        #expect(throws: UpstreamError(.malformed, provider: "coinbase", detail: "field data.rates.EUR is not a positive number")) {
            try coinbase(#""USD":"-1","EUR":"0""#)
        }
    }

    @Test func unavailableCurrenciesChangeTheValidator() throws {
        // Unavailable (502) and absent (404) are different answers, so different tables.
        let a = try coinbase(#""USD":"0","EUR":"1""#)
        let b = try coinbase(#""USD":{},"EUR":"1""#)
        let c = try coinbase(#""EUR":"1""#)
        #expect(a.cacheValidator != b.cacheValidator)
        #expect(a.cacheValidator != c.cacheValidator)
    }
}
