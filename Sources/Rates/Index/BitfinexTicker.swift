import Base
import HTTPClient
import Upstream

/// Bitfinex's ticker: `GET {base}/v2/ticker/tBTC{USD|EUR|GBP}` → `[BID, BID_SIZE, ASK,
/// ASK_SIZE, DAILY_CHANGE, DAILY_CHANGE_RELATIVE, LAST_PRICE, VOLUME, HIGH, LOW]` (JSON
/// numbers, read as their exact text). The last price is element 6; the answer carries no time.
public struct BitfinexTicker: IndexConstituent, DescribedProvider {
    /// Bitfinex's public endpoints: 90 requests a minute → 1.5 a second.
    public static let descriptor = ProviderDescriptor(
        id: "bitfinex", defaultBaseURL: "https://api-pub.bitfinex.com",
        defaultBudget: ProviderBudget(maxRequestsPerSecond: 1.5))
    public static let kind = IndexConstituentKind(descriptor) { baseURL, _ in BitfinexTicker(baseURL: baseURL) }

    public var baseURL: String

    public init(baseURL: String = BitfinexTicker.descriptor.defaultBaseURL) {
        self.baseURL = baseURL
    }

    public func url(_ currency: String) -> String {
        BaseURL.trimmed(baseURL) + "/v2/ticker/tBTC\(currency)"
    }

    public func decode(_ json: JSONValue, currency: String) throws(UpstreamError) -> IndexQuote {
        let d = UpstreamDecoding(provider: name)
        guard case let .array(fields) = json else {
            throw UpstreamError(.malformed, provider: name, detail: "response is \(json.kindDescription), not a JSON array")
        }
        guard fields.count == 10 else { throw d.invalid("[]", "has \(fields.count) elements, expected 10") }
        guard case let .number(text) = fields[6] else { throw d.wrongType("[6]", expected: "a number", got: fields[6]) }
        guard let price = DecimalText.parse(text) else { throw d.invalid("[6]", "is not a decimal number") }
        return IndexQuote(price: price, time: nil)
    }
}
