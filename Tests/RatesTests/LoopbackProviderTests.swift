import HTTPClient
import HTTPClientTestSupport
import Testing
import Upstream
@testable import Rates

/// The providers through the real `CurlHTTPClient` against a loopback stub upstream: the
/// request shapes of docs/rates.md "Providers and failover" as they go over the wire, and failover on a real 503.
@Suite struct LoopbackProviderTests {
    func client() -> CurlHTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.retries = 0
        configuration.timeoutMs = 10_000
        return CurlHTTPClient(configuration: configuration)
    }

    @Test func everyProviderOverTheWire() async throws {
        let upstream = try StubUpstream()
        upstream.route("/v2/exchange-rates?currency=BTC", .json(Fixtures.coinbase))
        upstream.route("/api/v3/simple/price", .json(Fixtures.coingecko))
        upstream.route("/v1/bpi/currentprice.json", .json(Fixtures.coindesk))
        let client = client()
        let fixed: WallClock = { Fixtures.fetchTime }

        let coinbase = try await CoinbaseProvider(baseURL: upstream.baseURL, now: fixed).fetch(client: client)
        #expect(coinbase.rate("USD")?.description == "91234.56")
        let coingecko = try await CoinGeckoProvider(baseURL: upstream.baseURL, now: fixed).fetch(client: client)
        #expect(coingecko.rate("EUR")?.description == "84000.123456789012345678")
        let coindesk = try await CoinDeskProvider(baseURL: upstream.baseURL + "/").fetch(client: client)
        #expect(coindesk.rate("GBP")?.description == "21342.5114")

        let gecko = try #require(upstream.requests.first { $0.path == "/api/v3/simple/price" })
        #expect(gecko.query == "ids=bitcoin&vs_currencies=" + CoinGeckoProvider.vsCurrencies.joined(separator: ","))
        #expect(upstream.requests.allSatisfy { $0.method == "GET" })
    }

    @Test func failoverOnARealServerError() async throws {
        let upstream = try StubUpstream()
        upstream.route("/v2/exchange-rates", .text("maintenance", status: 503))
        upstream.route("/api/v3/simple/price", .json(Fixtures.coingecko))
        var config = RatesConfiguration()
        config.endpoints["coinbase"].baseURL = upstream.baseURL
        config.endpoints["coingecko"].baseURL = upstream.baseURL
        let table = try await ProviderChain(rates: config.makeProviders(), client: client()).firstAnswer()
        #expect(table.source == "coingecko")
    }
}
