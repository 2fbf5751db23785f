import Foundation
import HTTPClient
import HTTPClientTestSupport
@testable import Rates

/// Recorded upstream bodies in the exact shapes of docs/rates.md "Providers and failover" (trimmed to a few currencies).
enum Fixtures {
    static let coinbase = #"""
    {"data":{"currency":"BTC","rates":{"USD":"91234.56","EUR":"84000.12","GBP":"72000.5","JPY":"13700000",
    "ETH":"29.81234567890123456789","USDC":"91230.1","BTC":"1.0","zwl":"0.0","1INCH":"300000"},"extra":{"x":1}},"warnings":[]}
    """#

    static let coingecko = #"""
    {"bitcoin":{"usd":91234.5,"eur":84000.123456789012345678,"gbp":7.2e4,"xau":34.05,"sats":100000000,"link":6000}}
    """#

    /// CoinDesk v1, as the public API answered until 2025 (plus a hex entity for CHF's test).
    static let coindesk = #"""
    {"time":{"updated":"Sep 20, 2024 06:05:00 UTC","updatedISO":"2024-09-20T06:05:00+00:00","updateduk":"Sep 20, 2024 at 07:05 BST"},
    "disclaimer":"This data was produced from the CoinDesk Bitcoin Price Index (USD & GBP).","chartName":"Bitcoin",
    "bpi":{"USD":{"code":"USD","symbol":"&#36;","rate":"27,564.3500","description":"United States Dollar","rate_float":27564.35},
    "GBP":{"code":"GBP","symbol":"&pound;","rate":"21,342.5114","description":"British Pound Sterling","rate_float":21342.5114},
    "EUR":{"code":"EUR","symbol":"&#x20AC;","rate":"25,682.1014","description":"Euro"},
    "XBT":{"code":"XBT","symbol":"&euro;&#8383;","rate":"1.0000","description":"Bitcoin (legacy code)","rate_float":1}}}
    """#

    static let fetchTime: Int64 = 1_736_000_000 // 2025-01-04T14:13:20Z

    static func table(_ rates: [String: String], updated: Int64 = fetchTime, source: String = "coinbase") -> RateTable {
        RateTable(rates: rates.mapValues { DecimalText.parse($0)! }, updated: updated, source: source)
    }
}

/// A provider that answers from a closure, for failover tests.
struct ScriptedProvider: RatesProvider {
    let name: String
    let result: @Sendable () throws -> RateTable
    func fetch(client: any HTTPClient) async throws -> RateTable {
        _ = try await client.get(UpstreamRequest(url: "http://stub.test/\(name)", provider: name))
        return try result()
    }
}

extension Decimal {
    init(_ text: String) { self = DecimalText.parse(text)! }
}
