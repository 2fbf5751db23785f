import Base
import Foundation
import HTTPClient
import Testing
@testable import Rates

/// Inputs found by the libFuzzer targets (Fuzz/, docs/fuzzing.md), kept as unit tests.
@Suite struct RatesFuzzRegressionTests {
    func coinbase(_ body: String) throws -> RateTable {
        try CoinbaseProvider().decode(try JSONParser.parse(Array(body.utf8)), fetchedAt: Fixtures.fetchTime)
    }

    /// fuzz target `coinbase`: rates of 1e127 and 1e-127 decoded, and the cross rate between them
    /// overflowed `Decimal` into NaN, rendered as `"rate":NaN` (not JSON).
    @Test func extremeRatesAreDroppedSoCrossRatesStayFinite() throws {
        let body = #"{"data":{"rates":{"USD":"1e127","EUR":"1e-127","GBP":"99999999999999999999999999999999999999999","#
            + #""JPY":"0.00000000000000000000000000000000000000001","CHF":"80000"}}}"#
        let table = try coinbase(body)
        #expect(table.codes == ["BTC", "CHF"])
        for base in ["BTC", "CHF"] {
            let rendered = try RatesRenderer.render(.rates(base: base, symbols: nil), table: table)
            #expect(throws: Never.self) { try JSONParser.parse(rendered) }
        }
        #expect(throws: UpstreamError.self) { try coinbase(#"{"data":{"rates":{"USD":"1e127","EUR":"1e-127"}}}"#) }
    }

    @Test func ratesAtTheBoundsAreKept() throws {
        let table = try coinbase(#"{"data":{"rates":{"USD":"1e30","EUR":"1e-30","GBP":"1.1e30","JPY":"0.9e-30"}}}"#)
        #expect(table.codes == ["BTC", "EUR", "USD"])
        let rendered = try RatesRenderer.render(.convert(from: "EUR", to: "USD", amount: try RatesInput.amount(String(repeating: "9", count: 32))), table: table)
        guard case let .number(result)? = try JSONParser.parse(rendered)["result"] else {
            Issue.record("no numeric result in \(String(decoding: rendered, as: UTF8.self))")
            return
        }
        #expect(DecimalText.parse(result) != nil)
    }
}

/// Timestamps almanac cannot write back: found by the `coingecko` and `coindesk` targets.
@Suite struct TimestampFuzzRegressionTests {
    /// fuzz target `coingecko`: `last_updated_at` of Int64.max became `updated`, which /v1/rates
    /// wrote as `292277026596-12-04T15:30:07Z`, not RFC 3339.
    @Test func coinGeckoIgnoresALastUpdatedAtPastYear9999() throws {
        for text in ["9223372036854775807", "253402300800"] {
            let body = #"{"bitcoin":{"usd":91234.5,"last_updated_at":"# + text + "}}"
            let table = try CoinGeckoProvider().decode(try JSONParser.parse(Array(body.utf8)), fetchedAt: Fixtures.fetchTime)
            #expect(table.updated == Fixtures.fetchTime)
            #expect(throws: Never.self) { try CoinDeskBPIRenderer.render(.bpiCurrentPrice, table: table) }
        }
        let body = #"{"bitcoin":{"usd":91234.5,"last_updated_at":253402300799}}"#
        let table = try CoinGeckoProvider().decode(try JSONParser.parse(Array(body.utf8)), fetchedAt: Fixtures.fetchTime)
        #expect(table.updated == 253_402_300_799)
        #expect(TimestampText.iso8601UTC(table.updated) == "9999-12-31T23:59:59Z")
    }

    /// fuzz target `coindesk`: `0000-01-01T00:00:00+23:59` is in year -1 UTC and was rendered as
    /// `"updated":"00-1-12-31T00:01:00Z"`.
    @Test func coinDeskRejectsAnUpdatedISOOutsideYears0000To9999() {
        for iso in ["0000-01-01T00:00:00+23:59", "9999-12-31T23:59:60-23:59", "9999-12-31T23:00:00-01:00"] {
            let body = #"{"time":{"updatedISO":""# + iso + #""},"bpi":{"USD":{"rate_float":1}}}"#
            #expect(throws: UpstreamError.self, "\(iso)") { try CoinDeskProvider().decode(try JSONParser.parse(Array(body.utf8))) }
            #expect(TimestampText.parseISO8601(iso) == nil)
        }
        #expect(TimestampText.parseISO8601("0000-01-01T00:00:00Z") == -62_167_219_200)
        #expect(TimestampText.parseISO8601("9999-12-31T23:59:59Z") == 253_402_300_799)
        #expect(TimestampText.parseISO8601("0000-01-01T00:00:00-00:01") == -62_167_219_140)
    }
}
