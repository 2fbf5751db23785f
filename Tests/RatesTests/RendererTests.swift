import Base
import Foundation
import Testing
@testable import Rates

@Suite struct RendererTests {
    let table = RateTable(
        rates: ["USD": Decimal("91234.56"), "EUR": Decimal("84000.12"), "GBP": Decimal("72000.5"), "ETH": Decimal("29.8")],
        updated: 1_443_403_380, source: "coinbase")

    func text(_ query: RatesQuery, _ table: RateTable? = nil) throws -> String {
        String(decoding: try RatesRenderer.render(query, table: table ?? self.table), as: UTF8.self)
    }

    @Test func ratesShape() throws {
        let body = try text(.rates(base: "BTC", symbols: ["EUR", "USD"]))
        #expect(body == #"{"base":"BTC","updated":"2015-09-28T01:23:00Z","source":"coinbase","rates":{"#
            + #""EUR":{"code":"EUR","name":"Euro","symbol":"€","rate":84000.12},"#
            + #""USD":{"code":"USD","name":"United States Dollar","symbol":"$","rate":91234.56}}}"#)
    }

    @Test func allRatesListEveryCodeSortedWithNonISONamedByCode() throws {
        let json = try JSONParser.parse(Array(try text(.rates(base: "EUR", symbols: nil)).utf8))
        guard case let .object(rates)? = json["rates"] else { Issue.record("no rates"); return }
        #expect(rates.keys.sorted() == ["BTC", "ETH", "EUR", "GBP", "USD"])
        #expect(json["rates"]?["EUR"]?["rate"] == .number("1"))
        #expect(json["rates"]?["USD"]?["rate"] == .number("1.08612416267977"))
        #expect(json["rates"]?["ETH"]?["name"] == .string("ETH"))
        #expect(json["rates"]?["ETH"]?["symbol"] == .null)
        #expect(json["rates"]?["BTC"]?["name"] == .string("Bitcoin"))
        let listing = try text(.rates(base: "EUR", symbols: nil))
        #expect(listing.range(of: "\"BTC\"")!.lowerBound < listing.range(of: "\"ETH\"")!.lowerBound)
    }

    @Test func oneRateShape() throws {
        #expect(try text(.rate(code: "USD", base: "EUR")) ==
            #"{"base":"EUR","code":"USD","name":"United States Dollar","symbol":"$","rate":1.08612416267977,"updated":"2015-09-28T01:23:00Z","source":"coinbase"}"#)
    }

    @Test func convertShape() throws {
        #expect(try text(.convert(from: "BTC", to: "USD", amount: Decimal("2.5"))) ==
            #"{"from":"BTC","to":"USD","amount":2.5,"rate":91234.56,"result":228086.4,"updated":"2015-09-28T01:23:00Z","source":"coinbase"}"#)
    }

    @Test func currenciesShape() throws {
        let body = try text(.currencies)
        #expect(body.hasPrefix(#"{"BTC":{"code":"BTC","name":"Bitcoin","symbol":"₿"},"ETH":{"code":"ETH","name":"ETH","symbol":null},"#))
        #expect(body.hasSuffix(#""USD":{"code":"USD","name":"United States Dollar","symbol":"$"}}"#))
    }

    @Test func unknownCodesAre404NamingThem() {
        for query: RatesQuery in [.rates(base: "XYZ", symbols: nil), .rates(base: "BTC", symbols: ["USD", "XYZ", "QQQ"]),
                                  .rate(code: "XYZ", base: "BTC"), .convert(from: "USD", to: "XYZ", amount: 1),
                                  .bpiCurrentPriceIn(code: "XYZ")] {
            do {
                _ = try RatesRenderer.render(query, table: table)
                Issue.record("expected 404 for \(query)")
            } catch {
                #expect(error.kind == .unknownCurrency)
                #expect(error.slug == "unknown-currency")
                #expect(error.detail.contains("XYZ"))
            }
        }
        do {
            _ = try RatesRenderer.render(.rates(base: "BTC", symbols: ["QQQ", "XYZ"]), table: table)
        } catch {
            #expect(error.detail == "Unknown currencies QQQ, XYZ: see /v1/currencies for the codes the current rates cover.")
        }
    }

    @Test func coinDeskCurrentPriceFieldByField() throws {
        let json = try JSONParser.parse(try RatesRenderer.render(.bpiCurrentPrice, table: table))
        #expect(json["time"]?["updated"] == .string("Sep 28, 2015 01:23:00 UTC"))
        #expect(json["time"]?["updatedISO"] == .string("2015-09-28T01:23:00+00:00"))
        #expect(json["time"]?["updateduk"] == .string("Sep 28, 2015 at 02:23 BST"))
        #expect(json["disclaimer"] == .string(CoinDeskBPIRenderer.disclaimer(source: "coinbase")))
        #expect(json["chartName"] == .string("Bitcoin"))
        #expect(json["bpi"]?["USD"] == .object(["code": .string("USD"), "symbol": .string("&#36;"), "rate": .string("91,234.5600"),
                                               "description": .string("United States Dollar"), "rate_float": .number("91234.56")]))
        #expect(json["bpi"]?["GBP"] == .object(["code": .string("GBP"), "symbol": .string("&pound;"), "rate": .string("72,000.5000"),
                                               "description": .string("British Pound Sterling"), "rate_float": .number("72000.5")]))
        #expect(json["bpi"]?["EUR"]?["symbol"] == .string("&euro;"))
        #expect(json["bpi"]?["EUR"]?["rate"] == .string("84,000.1200"))
        guard case let .object(bpi)? = json["bpi"] else { Issue.record("no bpi"); return }
        #expect(bpi.count == 3)
        // CoinDesk's key order: USD, GBP, EUR
        let body = String(decoding: try RatesRenderer.render(.bpiCurrentPrice, table: table), as: UTF8.self)
        #expect(body.hasPrefix(#"{"time":{"updated":"#))
        let usd = body.range(of: "\"USD\":")!.lowerBound, gbp = body.range(of: "\"GBP\":")!.lowerBound, eur = body.range(of: "\"EUR\":")!.lowerBound
        #expect(usd < gbp && gbp < eur)
    }

    @Test func coinDeskWinterTimeIsGMT() throws {
        let winter = RateTable(rates: ["USD": 1], updated: 1_736_000_000, source: "coingecko")
        let json = try JSONParser.parse(try RatesRenderer.render(.bpiCurrentPrice, table: winter))
        #expect(json["time"]?["updated"] == .string("Jan 4, 2025 14:13:20 UTC"))
        #expect(json["time"]?["updateduk"] == .string("Jan 4, 2025 at 14:13 GMT"))
        guard case let .object(bpi)? = json["bpi"] else { Issue.record("no bpi"); return }
        #expect(bpi.keys.sorted() == ["USD"]) // currencies the table lacks are left out
    }

    @Test func coinDeskOneCurrencyHasUSDAndTheCode() throws {
        let json = try JSONParser.parse(try RatesRenderer.render(.bpiCurrentPriceIn(code: "ETH"), table: table))
        guard case let .object(bpi)? = json["bpi"] else { Issue.record("no bpi"); return }
        #expect(bpi.keys.sorted() == ["ETH", "USD"])
        #expect(json["bpi"]?["ETH"]?["symbol"] == nil, "the per-currency shape has no symbol")
        #expect(json["chartName"] == nil, "nor a chartName")
        #expect(json["bpi"]?["ETH"]?["rate"] == .string("29.8000"))
        #expect(json["bpi"]?["ETH"]?["description"] == .string("ETH"))
        let usdOnly = try JSONParser.parse(try RatesRenderer.render(.bpiCurrentPriceIn(code: "USD"), table: table))
        guard case let .object(usdBPI)? = usdOnly["bpi"] else { Issue.record("no bpi"); return }
        #expect(usdBPI.keys.sorted() == ["USD"])
    }

    @Test func coinDeskSupportedCurrenciesShape() throws {
        let body = String(decoding: try RatesRenderer.render(.bpiSupportedCurrencies, table: table), as: UTF8.self)
        #expect(body == #"[{"currency":"BTC","country":"Bitcoin"},{"currency":"ETH","country":"ETH"},{"currency":"EUR","country":"Euro"},"#
            + #"{"currency":"GBP","country":"British Pound Sterling"},{"currency":"USD","country":"United States Dollar"},"#
            + #"{"currency":"XBT","country":"Bitcoin"}]"#)
    }

    @Test func rateFloatIsRoundedToFourDecimals() throws {
        let precise = RateTable(rates: ["USD": Decimal("91234.567891")], updated: 0, source: "x")
        let json = try JSONParser.parse(try RatesRenderer.render(.bpiCurrentPrice, table: precise))
        #expect(json["bpi"]?["USD"]?["rate"] == .string("91,234.5679"))
        #expect(json["bpi"]?["USD"]?["rate_float"] == .number("91234.5679"))
    }

    @Test func memoRendersOncePerQueryAndValidator() throws {
        let memo = RenderMemo(capacity: 8)
        let a = try memo.rendered(.currencies, table: table, validator: "v1")
        let b = try memo.rendered(.currencies, table: table, validator: "v1")
        #expect(a.body == b.body && a.etag == b.etag)
        #expect(memo.renderCount == 1)
        let other = try memo.rendered(.rates(base: "EUR", symbols: nil), table: table, validator: "v1")
        #expect(other.etag != a.etag)
        #expect(memo.renderCount == 2)
        // a new table validator invalidates everything
        let c = try memo.rendered(.currencies, table: table, validator: "v2")
        #expect(c.etag != a.etag)
        #expect(memo.renderCount == 3)
        #expect(memo.count == 1)
        // errors are not memoized
        #expect(throws: RatesInputError.self) { try memo.rendered(.rate(code: "XYZ", base: "BTC"), table: table, validator: "v2") }
        #expect(memo.count == 1)
    }

    /// The last-query shortcut answers only the query it was rendered for, under the validator
    /// it was rendered with: alternating queries, a new validator and an emptied memo each get
    /// their own rendering, never the last one's.
    @Test func memoLastQueryNeverAnswersAnotherQuery() throws {
        let memo = RenderMemo(capacity: 8)
        let eur = RatesQuery.rates(base: "EUR", symbols: nil), usd = RatesQuery.rates(base: "USD", symbols: nil)
        for query in [eur, usd, eur, eur, usd, usd, eur] {
            #expect(try memo.rendered(query, table: table, validator: "v1").body == RatesRenderer.render(query, table: table))
        }
        #expect(memo.renderCount == 2)
        let newer = RateTable(rates: ["USD": 1, "EUR": 2], updated: 1_443_403_400, source: "coinbase")
        #expect(try memo.rendered(eur, table: newer, validator: "v2").body == RatesRenderer.render(eur, table: newer))
        #expect(try memo.rendered(eur, table: table, validator: "v1").body == RatesRenderer.render(eur, table: table))
        #expect(memo.renderCount == 4)
        let single = RenderMemo(capacity: 1)
        _ = try single.rendered(eur, table: table, validator: "v")
        _ = try single.rendered(usd, table: table, validator: "v")
        #expect(try single.rendered(eur, table: table, validator: "v").body == RatesRenderer.render(eur, table: table))
        #expect(single.renderCount == 3)
    }

    @Test func memoIsBounded() throws {
        let memo = RenderMemo(capacity: 4)
        for n in 0..<10 {
            _ = try memo.rendered(.convert(from: "USD", to: "EUR", amount: Decimal(n)), table: table, validator: "v")
            #expect(memo.count <= 4)
        }
    }

    @Test func validatorChangesWithContent() {
        let a = RateTable(rates: ["USD": 1], updated: 0, source: "x")
        #expect(a.cacheValidator == RateTable(rates: ["USD": 1], updated: 0, source: "x").cacheValidator)
        #expect(a.cacheValidator != RateTable(rates: ["USD": 2], updated: 0, source: "x").cacheValidator)
        #expect(a.cacheValidator != RateTable(rates: ["USD": 1], updated: 1, source: "x").cacheValidator)
        #expect(a.cacheValidator != RateTable(rates: ["USD": 1], updated: 0, source: "y").cacheValidator)
        #expect(a.cacheValidator.count == 16)
    }
}
