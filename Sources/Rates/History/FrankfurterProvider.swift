import Base
import HTTPClient
import Upstream

/// ECB reference rates through Frankfurter: `GET {base}/v1/{start}..{end}?base=USD&symbols=JPY,CHF,…`
/// → `{"amount":1.0,"base":"USD","start_date":"…","end_date":"…","rates":{"2024-01-02":{"JPY":141.9,…},…}}`,
/// business days only. Gives the USD→X rate that turns a BTC-USD close into a BTC-X close for
/// every ECB reference currency the exchanges do not trade.
public struct FrankfurterProvider: Sendable, DescribedProvider {
    /// ECB reference rates; no published limit, so no budget.
    public static let descriptor = ProviderDescriptor(id: "frankfurter", defaultBaseURL: "https://api.frankfurter.dev")
    /// The ECB publishes from 1999-01-04.
    public static let earliest: Int64 = 10_595
    /// A year per request keeps each answer small (≈ 260 business days × 28 rates).
    public let plan = HistoryBlockPlan(size: 366, earliest: FrankfurterProvider.earliest)
    /// ECB reference currencies other than USD, EUR and GBP (whose closes come from exchanges).
    public static let currencies = [
        "AUD", "BGN", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "HKD", "HUF", "IDR", "ILS", "INR", "ISK",
        "JPY", "KRW", "MXN", "MYR", "NOK", "NZD", "PHP", "PLN", "RON", "SEK", "SGD", "THB", "TRY", "ZAR",
    ]
    public var baseURL: String

    public init(baseURL: String = FrankfurterProvider.descriptor.defaultBaseURL) {
        self.baseURL = baseURL
    }

    public func url(days: ClosedRange<Int64>) -> String {
        BaseURL.trimmed(baseURL) + "/v1/\(HistoryDay.text(days.lowerBound))..\(HistoryDay.text(days.upperBound))"
            + "?base=USD&symbols=" + FrankfurterProvider.currencies.joined(separator: ",")
    }

    /// USD→X rates per business day in `days` (code → day → `HistoryFixed` value).
    public func rates(days: ClosedRange<Int64>, client: any HTTPClient) async throws -> [String: [Int64: Int64]] {
        let json = try await ProviderFetch.json(url(days: days), provider: name, client: client)
        return try decode(json, days: days)
    }

    /// Decodes a parsed body; public for tests and fuzzing. Codes not asked for are ignored.
    public func decode(_ json: JSONValue, days: ClosedRange<Int64>) throws(UpstreamError) -> [String: [Int64: Int64]] {
        let d = UpstreamDecoding(provider: name)
        let root = try d.root(json)
        guard let base = root["base"] else { throw d.missing("base") }
        guard case .string("USD") = base else { throw d.invalid("base", "is not \"USD\"") }
        let dates = try d.object(root["rates"], "rates")
        var out: [String: [Int64: Int64]] = [:]
        for (dateText, table) in dates {
            guard let day = HistoryDay.parse(dateText) else { throw d.invalid("rates", "has a key that is not a YYYY-MM-DD date") }
            let rates = try d.object(table, "rates.\(dateText)")
            guard days.contains(day) else { continue }
            for code in FrankfurterProvider.currencies {
                guard let value = rates[code] else { continue }
                out[code, default: [:]][day] = try d.fixed(value, "rates.\(dateText).\(code)")
            }
        }
        return out
    }
}
