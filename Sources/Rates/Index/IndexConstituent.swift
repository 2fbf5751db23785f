import Base
import Foundation
import HTTPClient
import Upstream

/// An exchange whose public ticker is one of the index's constituents. Each answers one
/// currency (USD, EUR or GBP) per request; decoding failures are `UpstreamError(.malformed)`
/// naming the field, so `/v1/index` can say what was wrong.
public protocol IndexConstituent: Sendable {
    /// Stable provider name (`kraken`): in `rates.index.providers`, metrics, `/v1/index`.
    var name: String { get }
    /// The ticker's URL for `currency` (upper-case `USD`, `EUR` or `GBP`).
    func url(_ currency: String) -> String
    /// Decodes a parsed ticker; public for tests and fuzzing.
    func decode(_ json: JSONValue, currency: String) throws(UpstreamError) -> IndexQuote
}

extension IndexConstituent {
    /// GET the ticker, require a 200, parse and decode it.
    public func quote(_ currency: String, client: any HTTPClient) async throws -> IndexQuote {
        let url = url(currency)
        let json = try await ProviderFetch.json(url, provider: name, client: client)
        return try ProviderFetch.decoding(url) { () throws(UpstreamError) in try decode(json, currency: currency) }
    }
}

/// An index constituent the service can be configured with, built at a base URL.
public typealias IndexConstituentKind = ProviderKind<any IndexConstituent, Void>

extension ProviderKind where Provider == any IndexConstituent, Context == Void {
    /// Every index constituent, in documentation order (the default `rates.index.providers`).
    /// A new exchange joins here (docs/development.md "How to add a provider").
    public static var all: [IndexConstituentKind] {
        [CoinbaseExchangeTicker.kind, BitstampTicker.kind, KrakenTicker.kind, GeminiTicker.kind, BitfinexTicker.kind]
    }
}

/// Decoding helpers shared by the tickers: a price given as a decimal string or a JSON number,
/// parsed strictly (`DecimalText.parse`: `"1e3"` yes, `"1,000"` or `" 1"` no).
extension UpstreamDecoding {
    /// The literal text of a JSON number or string at `path` (exchanges send both).
    func scalarText(_ value: JSONValue?, _ path: String, expected: String) throws(UpstreamError) -> String {
        guard let value else { throw missing(path) }
        switch value {
        case let .string(text), let .number(text): return text
        default: throw wrongType(path, expected: expected, got: value)
        }
    }

    func price(_ value: JSONValue?, _ path: String) throws(UpstreamError) -> Decimal {
        guard let price = DecimalText.parse(try scalarText(value, path, expected: "a decimal number")) else {
            throw invalid(path, "is not a decimal number")
        }
        return price
    }

    func string(_ value: JSONValue?, _ path: String) throws(UpstreamError) -> String {
        guard let value else { throw missing(path) }
        guard case let .string(text) = value else { throw wrongType(path, expected: "a string", got: value) }
        return text
    }

    /// A Unix time given as digits (a string or a JSON integer), in seconds or, with
    /// `divisor` 1000, milliseconds; refused outside the years 0000–9999.
    func unixTime(_ value: JSONValue?, _ path: String, divisor: Int64 = 1) throws(UpstreamError) -> Int64 {
        let text = try scalarText(value, path, expected: "a Unix time")
        guard text.utf8.count <= 19, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let raw = Int64(text), TimestampText.writableRange.contains(raw / divisor) else {
            throw invalid(path, "is not a Unix time")
        }
        return raw / divisor
    }
}
