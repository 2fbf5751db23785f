import Base
import HTTPClient
import Upstream

/// Kraken's ticker: `GET {base}/0/public/Ticker?pair=XBT{USD|EUR|GBP}` →
/// `{"error":[],"result":{"XXBTZUSD":{"c":["43250.9","0.001"],…}}}`. The last trade is
/// `c[0]`; the result key is `XXBTZ` + the currency; a non-empty `error` array is a failure
/// (its first message is the detail). The answer carries no time.
public struct KrakenTicker: IndexConstituent, DescribedProvider {
    /// Kraken's public endpoints: about one call a second per IP → 1 a second.
    public static let descriptor = ProviderDescriptor(
        id: "kraken", defaultBaseURL: "https://api.kraken.com",
        defaultBudget: ProviderBudget(maxRequestsPerSecond: 1))
    public static let kind = IndexConstituentKind(descriptor) { baseURL, _ in KrakenTicker(baseURL: baseURL) }

    public var baseURL: String

    public init(baseURL: String = KrakenTicker.descriptor.defaultBaseURL) {
        self.baseURL = baseURL
    }

    public func url(_ currency: String) -> String {
        BaseURL.trimmed(baseURL) + "/0/public/Ticker?pair=XBT\(currency)"
    }

    public func decode(_ json: JSONValue, currency: String) throws(UpstreamError) -> IndexQuote {
        let d = UpstreamDecoding(provider: name)
        let root = try d.root(json)
        if let errors = root["error"] {
            guard case let .array(messages) = errors else { throw d.wrongType("error", expected: "an array", got: errors) }
            if let first = messages.first {
                let message: String
                if case let .string(text) = first { message = String(text.unicodeScalars.prefix(80)) } else { message = first.kindDescription }
                throw UpstreamError(.other, provider: name, detail: "error \(message)")
            }
        }
        let key = "XXBTZ" + currency
        let result = try d.object(root["result"], "result")
        let pair = try d.object(result[key], "result.\(key)")
        let path = "result.\(key).c"
        guard let last = pair["c"] else { throw d.missing(path) }
        guard case let .array(fields) = last else { throw d.wrongType(path, expected: "an array", got: last) }
        return IndexQuote(price: try d.price(fields.first, path + "[0]"), time: nil)
    }
}
