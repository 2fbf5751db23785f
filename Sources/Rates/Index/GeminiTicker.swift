import Base
import HTTPClient
import Upstream

/// Gemini's ticker: `GET {base}/v1/pubticker/btc{usd|eur|gbp}` →
/// `{"bid","ask","volume":{"BTC","USD","timestamp":1704456000000},"last":"43249.5"}`; the time
/// is `volume.timestamp`, in milliseconds.
public struct GeminiTicker: IndexConstituent, DescribedProvider {
    /// Gemini's public API: 120 requests a minute → 2 a second.
    public static let descriptor = ProviderDescriptor(
        id: "gemini", defaultBaseURL: "https://api.gemini.com",
        defaultBudget: ProviderBudget(maxRequestsPerSecond: 2))
    public static let kind = IndexConstituentKind(descriptor) { baseURL, _ in GeminiTicker(baseURL: baseURL) }

    public var baseURL: String

    public init(baseURL: String = GeminiTicker.descriptor.defaultBaseURL) {
        self.baseURL = baseURL
    }

    public func url(_ currency: String) -> String {
        BaseURL.trimmed(baseURL) + "/v1/pubticker/btc\(currency.lowercased())"
    }

    public func decode(_ json: JSONValue, currency: String) throws(UpstreamError) -> IndexQuote {
        let d = UpstreamDecoding(provider: name)
        let root = try d.root(json)
        let volume = try d.object(root["volume"], "volume")
        return IndexQuote(price: try d.price(root["last"], "last"),
                          time: try d.unixTime(volume["timestamp"], "volume.timestamp", divisor: 1000))
    }
}
