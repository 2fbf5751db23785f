import Base
import HTTPClient
import Upstream

/// CoinGecko's simple price API: `GET {base}/api/v3/simple/price?ids=bitcoin&vs_currencies=…`
/// → `{"bitcoin":{"usd":91234.5,…}}`. Rates are JSON numbers with lower-case codes; their
/// literal text is parsed straight into `Decimal` (never via `Double`). `updated` is the
/// fetch time, or `bitcoin.last_updated_at` when a mirror includes it (and it is a positive
/// Unix time before year 10000).
public struct CoinGeckoProvider: JSONRatesProvider, DescribedProvider {
    /// Keyless CoinGecko: a few calls a minute per IP, shared → 0.2 a second (12 a minute).
    public static let descriptor = ProviderDescriptor(
        id: "coingecko", defaultBaseURL: "https://api.coingecko.com",
        defaultBudget: ProviderBudget(maxRequestsPerSecond: 0.2))
    public static let kind = RatesProviderKind(descriptor) { CoinGeckoProvider(baseURL: $0, now: $1) }

    public var baseURL: String
    public var now: WallClock

    /// The three-letter `vs_currencies` CoinGecko supports (its `/simple/supported_vs_currencies`,
    /// minus `btc` itself, the retired `vef`, and codes almanac cannot address such as `link`).
    public static let vsCurrencies = [
        "usd", "aed", "ars", "aud", "bdt", "bhd", "bmd", "brl", "cad", "chf", "clp", "cny", "czk",
        "dkk", "eur", "gbp", "gel", "hkd", "huf", "idr", "ils", "inr", "jpy", "krw", "kwd", "lkr",
        "mmk", "mxn", "myr", "ngn", "nok", "nzd", "php", "pkr", "pln", "rub", "sar", "sek", "sgd",
        "thb", "try", "twd", "uah", "vnd", "zar", "xdr", "xag", "xau",
        "eth", "ltc", "bch", "bnb", "eos", "xrp", "xlm", "dot", "yfi",
    ]

    public init(baseURL: String = CoinGeckoProvider.descriptor.defaultBaseURL, now: @escaping WallClock = WallClocks.system) {
        self.baseURL = baseURL
        self.now = now
    }

    public var url: String {
        BaseURL.trimmed(baseURL) + "/api/v3/simple/price?ids=bitcoin&vs_currencies="
            + CoinGeckoProvider.vsCurrencies.joined(separator: ",")
    }

    public func decode(_ json: JSONValue, fetchedAt: Int64) throws(UpstreamError) -> RateTable {
        let d = UpstreamDecoding(provider: name)
        let root = try d.root(json)
        let bitcoin = try d.object(root["bitcoin"], "bitcoin")
        var updated = fetchedAt
        if case let .number(text)? = bitcoin["last_updated_at"], let seconds = Int64(text), seconds > 0,
           TimestampText.writableRange.contains(seconds) {
            updated = seconds
        }
        var builder = RateTableBuilder()
        builder.add(rates: bitcoin, at: "bitcoin", decoding: d, expected: "a number", unparsable: "is out of range") {
            if case let .number(text) = $0 { text } else { nil }
        }
        return try builder.build(updated: updated, source: name, emptyPath: "bitcoin")
    }
}
