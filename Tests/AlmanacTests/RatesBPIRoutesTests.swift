import HTTP1
import Rates
import Testing
@testable import Almanac

/// The CoinDesk-compatible endpoints, field by field, summer and winter.
@Suite struct RatesBPIRoutesTests {
    @Test func currentPriceInSummer() async throws {
        let h = RatesHarness() // fetch time 2015-09-28T01:23:00Z (BST)
        let r = await h.get("/v1/bpi/currentprice.json").response
        #expect(r.status == .ok)
        #expect(r.headers["Content-Type"] == "application/json; charset=utf-8")
        let json = try #require(r.ratesJSON)
        #expect(json["time"] == .object(["updated": .string("Sep 28, 2015 01:23:00 UTC"),
                                         "updatedISO": .string("2015-09-28T01:23:00+00:00"),
                                         "updateduk": .string("Sep 28, 2015 at 02:23 BST")]))
        #expect(json["chartName"] == .string("Bitcoin"))
        guard case .string? = json["disclaimer"] else { Issue.record("no disclaimer"); return }
        #expect(json["bpi"]?["USD"] == .object(["code": .string("USD"), "symbol": .string("&#36;"), "rate": .string("91,234.5600"),
                                               "description": .string("United States Dollar"), "rate_float": .number("91234.56")]))
        #expect(json["bpi"]?["GBP"] == .object(["code": .string("GBP"), "symbol": .string("&pound;"), "rate": .string("72,000.5000"),
                                               "description": .string("British Pound Sterling"), "rate_float": .number("72000.5")]))
        #expect(json["bpi"]?["EUR"] == .object(["code": .string("EUR"), "symbol": .string("&euro;"), "rate": .string("84,000.1200"),
                                               "description": .string("Euro"), "rate_float": .number("84000.12")]))
        guard case let .object(bpi)? = json["bpi"] else { Issue.record("no bpi"); return }
        #expect(bpi.count == 3)
    }

    @Test func currentPriceInWinterFromACoinDeskMirror() async throws {
        let h = RatesHarness(providers: ["coindesk"])
        h.script("coindesk", .body(#"""
        {"time":{"updated":"Jan 4, 2025 14:13:20 UTC","updatedISO":"2025-01-04T14:13:20+00:00","updateduk":"Jan 4, 2025 at 14:13 GMT"},
         "bpi":{"USD":{"code":"USD","symbol":"&#36;","rate":"98,123.4567","description":"United States Dollar","rate_float":98123.4567},
                "CHF":{"code":"CHF","symbol":"CHF","rate":"88,000.0000","description":"Swiss Franc","rate_float":88000}}}
        """#))
        let json = try #require(await h.get("/v1/bpi/currentprice/chf.json").response.ratesJSON)
        #expect(json["time"]?["updated"] == .string("Jan 4, 2025 14:13:20 UTC"))
        #expect(json["time"]?["updatedISO"] == .string("2025-01-04T14:13:20+00:00"))
        #expect(json["time"]?["updateduk"] == .string("Jan 4, 2025 at 14:13 GMT"))
        #expect(json["bpi"]?["USD"]?["rate"] == .string("98,123.4567"))
        #expect(json["bpi"]?["CHF"] == .object(["code": .string("CHF"), "rate": .string("88,000.0000"),
                                               "description": .string("Swiss Franc"), "rate_float": .number("88000")]))
        #expect(h.client.requests.first?.url == "http://coindesk.test/v1/bpi/currentprice.json")
        let rates = try #require(await h.get("/v1/rates").response.ratesJSON)
        #expect(rates["source"] == .string("coindesk"))
        #expect(rates["updated"] == .string("2025-01-04T14:13:20Z"))
    }

    @Test func currentPriceForOneCode() async throws {
        let h = RatesHarness()
        let json = try #require(await h.get("/v1/bpi/currentprice/JPY.json").response.ratesJSON)
        guard case let .object(bpi)? = json["bpi"] else { Issue.record("no bpi"); return }
        #expect(bpi.keys.sorted() == ["JPY", "USD"])
        #expect(json["bpi"]?["JPY"] == .object(["code": .string("JPY"), "rate": .string("13,700,000.0000"),
                                               "description": .string("Japanese Yen"), "rate_float": .number("13700000")]))
    }

    @Test func currentPriceForUnknownOrMalformedCode() async {
        let h = RatesHarness()
        let unknown = await h.get("/v1/bpi/currentprice/XYZ.json").response
        #expect(unknown.status == .notFound)
        #expect(unknown.headers["Cache-Control"] == "no-store")
        let malformed = await h.get("/v1/bpi/currentprice/EURO.json").response
        #expect(malformed.status == .badRequest)
    }

    @Test func supportedCurrencies() async {
        let h = RatesHarness()
        let r = await h.get("/v1/bpi/supported-currencies.json").response
        #expect(r.status == .ok)
        #expect(r.ratesText == #"[{"currency":"BTC","country":"Bitcoin"},{"currency":"ETH","country":"ETH"},{"currency":"EUR","country":"Euro"},"#
            + #"{"currency":"GBP","country":"British Pound Sterling"},{"currency":"JPY","country":"Japanese Yen"},"#
            + #"{"currency":"USD","country":"United States Dollar"},{"currency":"XBT","country":"Bitcoin"}]"#)
    }
}
