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
