import Foundation
import HTTPClient

/// Collects decoded rates under the rules every provider shares: codes upper-cased; codes
/// that are not three letters dropped (clients could never ask for them); zero or negative
/// rates dropped (a currency worth nothing cannot be a base or a divisor); an empty result
/// is an error, so a provider that "succeeds" with nothing usable fails over instead.
struct RateTableBuilder {
    private(set) var rates: [String: Decimal] = [:]
    private(set) var currencies: [String: Currency] = [:]

    /// The normalized code when `rawCode` is worth decoding; nil to skip the entry.
    static func usableCode(_ rawCode: String) -> String? {
        CurrencyCode.normalize(rawCode)
    }

    mutating func add(_ code: String, rate: Decimal) {
        guard rate > 0 else { return }
        rates[code] = rate
    }

    mutating func describe(_ code: String, name: String?, symbol: String?) {
        guard name != nil || symbol != nil else { return }
        currencies[code] = Currency(code: code, name: name ?? code, symbol: symbol)
    }

    func build(updated: Int64, source: String, emptyPath: String) throws(UpstreamError) -> RateTable {
        guard rates.contains(where: { $0.key != "BTC" }) else {
            throw UpstreamError(.malformed, provider: source, detail: "field \(emptyPath) holds no usable rates")
        }
        return RateTable(rates: rates, updated: updated, source: source,
                         upstreamCurrencies: currencies.filter { rates[$0.key] != nil })
    }
}
