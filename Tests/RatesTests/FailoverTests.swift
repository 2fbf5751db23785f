import HTTPClient
import HTTPClientTestSupport
import Testing
import Upstream
@testable import Rates

@Suite struct FailoverTests {
    let fixed: WallClock = { Fixtures.fetchTime }

    /// coinbase answers per `coinbase`, coingecko per `coingecko`, by URL.
    func client(coinbase: @escaping @Sendable () throws -> UpstreamResponse,
                coingecko: @escaping @Sendable () throws -> UpstreamResponse) -> StubHTTPClient {
        StubHTTPClient { request in
            request.provider == "coinbase" ? try coinbase() : try coingecko()
        }
    }

    var providers: [any RatesProvider] { RatesConfiguration().makeProviders(now: fixed) }

    @Test func firstSuccessWinsAndLaterProvidersAreNotAsked() async throws {
        let stub = client(coinbase: { StubHTTPClient.json(Fixtures.coinbase) }, coingecko: { StubHTTPClient.json(Fixtures.coingecko) })
        let table = try await ProviderChain(rates: providers, client: stub).firstAnswer()
        #expect(table.source == "coinbase")
        #expect(stub.requests.map(\.provider) == ["coinbase"])
    }

    @Test func firstFailsSecondIsUsed() async throws {
        let stub = client(coinbase: { StubHTTPClient.json("oops", status: 503) }, coingecko: { StubHTTPClient.json(Fixtures.coingecko) })
        let table = try await ProviderChain(rates: providers, client: stub).firstAnswer()
        #expect(table.source == "coingecko")
        #expect(stub.requests.map(\.provider) == ["coinbase", "coingecko"])
    }

    @Test func allFailListsEveryProviderInOrder() async {
        let stub = client(coinbase: { StubHTTPClient.json("oops", status: 503) },
                          coingecko: { throw UpstreamError(.timeout, provider: "coingecko", detail: "no answer within 5000 ms") })
        do {
            _ = try await ProviderChain(rates: providers, client: stub).firstAnswer()
            Issue.record("expected failure")
        } catch let error as ProvidersUnavailable {
            #expect(error.failures.map(\.provider) == ["coinbase", "coingecko"])
            #expect(!error.isTimeout)
            #expect(error.description == "coinbase: other: HTTP 503; coingecko: timeout: no answer within 5000 ms")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func onlyTimeoutsIsATimeout() async {
        let timeout: @Sendable () throws -> UpstreamResponse = { throw UpstreamError(.timeout, provider: "x", detail: "slow") }
        do {
            _ = try await ProviderChain(rates: providers, client: client(coinbase: timeout, coingecko: timeout)).firstAnswer()
            Issue.record("expected failure")
        } catch let error as ProvidersUnavailable {
            #expect(error.isTimeout)
            #expect(error.failures.count == 2)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func cancellationStopsTheWalk() async {
        let stub = client(coinbase: { throw UpstreamError(.cancelled, provider: "coinbase", detail: "cancelled") },
                          coingecko: { StubHTTPClient.json(Fixtures.coingecko) })
        await #expect(throws: CancellationError.self) { try await ProviderChain(rates: providers, client: stub).firstAnswer() }
        #expect(stub.requests.count == 1)
    }

    @Test func configurationBuildsProvidersInOrder() {
        var config = RatesConfiguration()
        config.providers = ["coindesk", "coinbase"]
        config.endpoints["coindesk"].baseURL = "http://mirror.test"
        #expect(config.makeProviders().map(\.name) == ["coindesk", "coinbase"])
        #expect((config.makeProviders().first as? CoinDeskProvider)?.url == "http://mirror.test/v1/bpi/currentprice.json")
        #expect(RatesConfiguration().providers == ["coinbase", "coingecko"])
        #expect(RatesConfiguration().ttlSeconds == 60)
        #expect(RatesConfiguration().staleSeconds == 600)
        #expect(RatesConfiguration().endpoints["coingecko"] == ProviderEndpoint(
            baseURL: "https://api.coingecko.com", budget: ProviderBudget(maxRequestsPerSecond: 0.2)))
        #expect(RatesConfiguration().kinds.map(\.descriptor.id) == ["coinbase", "coingecko", "coindesk"])
    }
}
