import Base
import HTTPClient
import Upstream
@testable import Rates

/// docs/development.md "How to add a provider", the "one file": a made-up rates provider with its id,
/// default base URL and budget, its request and its decoder. The tests add it to a registry
/// with one line (`ProviderListingTests.defaults`) and see every other piece follow: its keys,
/// its `check-config --providers` line, the harnesses' stub wiring, and its answers served.
struct ExampleRatesProvider: JSONRatesProvider, DescribedProvider {
    static let descriptor = ProviderDescriptor(id: "example-rates", defaultBaseURL: "https://rates.example.org",
                                               defaultBudget: ProviderBudget(maxRequestsPerSecond: 4))
    static let kind = RatesProviderKind(descriptor) { ExampleRatesProvider(baseURL: $0, now: $1) }

    /// Where the stub answers it, and what: `{"rates":{"USD":"…",…}}`, decimal strings per BTC.
    static let path = "/btc"

    var baseURL: String
    var now: WallClock = WallClocks.system
    var url: String { BaseURL.trimmed(baseURL) + Self.path }

    func decode(_ json: JSONValue, fetchedAt: Int64) throws(UpstreamError) -> RateTable {
        let d = UpstreamDecoding(provider: name)
        let rates = try d.object(try d.root(json)["rates"], "rates")
        var builder = RateTableBuilder()
        builder.add(rates: rates, at: "rates", decoding: d, expected: "a decimal string", unparsable: "is not a decimal number") {
            if case let .string(text) = $0 { text } else { nil }
        }
        return try builder.build(updated: fetchedAt, source: name, emptyPath: "rates")
    }
}
