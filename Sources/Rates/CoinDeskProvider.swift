import Base
import Foundation
import HTTPClient
import Upstream

/// CoinDesk's Bitcoin Price Index v1: `GET {base}/v1/bpi/currentprice.json`. The public API
/// went dark in 2025; this reads mirrors and recorded fixtures. `updated` is
/// `time.updatedISO`; each rate is `rate_float` (its literal text, number or string) or else
/// `rate` with its thousands separators removed; `description` and the HTML-entity `symbol`
/// (`&#36;`, `&pound;`) are decoded and kept for codes the ISO table lacks.
public struct CoinDeskProvider: RatesProvider, DescribedProvider {
    /// Retired in 2025; kept for mirrors and recorded fixtures (no budget: no guidance).
    public static let descriptor = ProviderDescriptor(id: "coindesk", defaultBaseURL: "https://api.coindesk.com")
    public static let kind = RatesProviderKind(descriptor) { baseURL, _ in CoinDeskProvider(baseURL: baseURL) }

    public var baseURL: String

    public init(baseURL: String = CoinDeskProvider.descriptor.defaultBaseURL) {
        self.baseURL = baseURL
    }

    public var url: String { BaseURL.trimmed(baseURL) + "/v1/bpi/currentprice.json" }

    public func fetch(client: any HTTPClient) async throws -> RateTable {
        try await ProviderFetch.table(url, provider: name, client: client) { json throws(UpstreamError) in try decode(json) }
    }

    /// Decodes a parsed body; public for tests and fuzzing.
    public func decode(_ json: JSONValue) throws(UpstreamError) -> RateTable {
        let d = UpstreamDecoding(provider: name)
        let root = try d.root(json)
        let time = try d.object(root["time"], "time")
        guard let isoValue = time["updatedISO"] else { throw d.missing("time.updatedISO") }
        guard case let .string(isoText) = isoValue else { throw d.wrongType("time.updatedISO", expected: "a string", got: isoValue) }
        guard let updated = TimestampText.parseISO8601(isoText) else { throw d.invalid("time.updatedISO", "is not an ISO 8601 date-time") }

        let bpi = try d.object(root["bpi"], "bpi")
        var builder = RateTableBuilder()
        for (rawCode, value) in bpi {
            guard let code = RateTableBuilder.usableCode(rawCode) else { continue }
            let entry: [String: JSONValue]
            do {
                entry = try d.object(value, "bpi.\(rawCode)")
                let (rate, field) = try rate(entry, path: "bpi.\(rawCode)", d)
                builder.add(code, rate: rate, field: field, provider: name)
            } catch {
                builder.unusable(code, error)
                continue
            }
            builder.describe(code, name: string(entry["description"]), symbol: string(entry["symbol"]).map(HTMLEntities.decode))
        }
        return try builder.build(updated: updated, source: name, emptyPath: "bpi")
    }

    private func rate(_ entry: [String: JSONValue], path: String, _ d: UpstreamDecoding) throws(UpstreamError) -> (Decimal, field: String) {
        if let value = entry["rate_float"] {
            switch value {
            case let .number(text), let .string(text):
                guard let rate = DecimalText.parse(text) else { throw d.invalid("\(path).rate_float", "is not a number") }
                return (rate, "\(path).rate_float")
            default:
                throw d.wrongType("\(path).rate_float", expected: "a number", got: value)
            }
        }
        guard let value = entry["rate"] else { throw d.missing("\(path).rate_float") }
        guard case let .string(text) = value else { throw d.wrongType("\(path).rate", expected: "a string", got: value) }
        guard let rate = DecimalText.parse(text.replacingOccurrences(of: ",", with: "")) else {
            throw d.invalid("\(path).rate", "is not a decimal number")
        }
        return (rate, "\(path).rate")
    }

    private func string(_ value: JSONValue?) -> String? {
        if case let .string(s)? = value, !s.isEmpty { return s }
        return nil
    }
}
