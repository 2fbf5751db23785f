import Base
import TestSupport
import Cache
import Foundation
import HTTPClient
import HTTPClientTestSupport
import HTTP1
import Web
import Rates
import Synchronization
import Testing
@testable import Almanac

/// A router with the rates routes over a real `CacheStore` (manual clock, no jitter) and a
/// scripted upstream whose answers tests can change between requests.
final class RatesHarness: Sendable {
    enum Answer: Sendable {
        case body(String, status: Int = 200)
        case fail(UpstreamError.Kind)
    }

    static let coinbaseBody = #"{"data":{"currency":"BTC","rates":{"USD":"91234.56","EUR":"84000.12","GBP":"72000.5","JPY":"13700000","ETH":"29.8"}}}"#
    static let coingeckoBody = #"{"bitcoin":{"usd":90000.5,"eur":83000.25,"gbp":71000}}"#
    /// 2015-09-28T01:23:00Z: the fetch time coinbase and coingecko tables carry.
    static let fetchTime: Int64 = 1_443_403_380

    let clock = ManualCacheClock()
    let store: CacheStore
    let client: StubHTTPClient
    let service: RatesService
    let router: Router
    /// `router` behind the app's pipeline.
    let responder: HTTPServer.Responder
    /// Scripted answers by provider name.
    private let answers = Locked<[String: Answer]>([
        "coinbase": .body(RatesHarness.coinbaseBody),
        "coingecko": .body(RatesHarness.coingeckoBody),
    ])
    private let gate = Gate()

    init(providers: [String] = ["coinbase", "coingecko"], ttl: Double = 60, stale: Double = 600, gated: Bool = false) {
        let answers = self.answers
        let gate = self.gate
        if !gated { gate.open() }
        client = StubHTTPClient { request in
            await gate.wait()
            switch answers.withLock({ $0[request.provider] }) {
            case let .body(text, status)?: return StubHTTPClient.json(text, status: status)
            case let .fail(kind)?: throw UpstreamError(kind, provider: request.provider, detail: "scripted \(kind.rawValue)")
            case nil: throw UpstreamError(.other, provider: request.provider, detail: "no script")
            }
        }
        store = CacheStore(limits: CacheLimits(), clock: clock, randomUnit: { 0 })
        var configuration = RatesConfiguration()
        configuration.providers = providers
        configuration.ttlSeconds = ttl
        configuration.staleSeconds = stale
        // The chain alone: these tests count its requests (the index has FullStackIndexTests).
        configuration.index.providers = []
        for id in ["coinbase", "coingecko", "coindesk"] { configuration.endpoints[id].baseURL = "http://\(id).test" }
        service = RatesService(configuration: configuration, client: client, cache: store, now: { RatesHarness.fetchTime })
        var router = Router()
        RatesRoutes.register(on: &router, service: service)
        self.router = router
        responder = pipelined(router)
    }

    func script(_ provider: String, _ answer: Answer) {
        answers.withLock { $0[provider] = answer }
    }

    func openGate() { gate.open() }

    /// The response and whether it was answered `.ready` (no task hop).
    func get(_ target: String, headers: HTTPHeaders = HTTPHeaders()) async -> (response: HTTPResponse, ready: Bool) {
        switch responder(HTTPRequest(method: "GET", target: target, headers: headers)) {
        case let .ready(response): return (response, true)
        case let .pending(work): return (await work(), false)
        }
    }

    var upstreamCalls: Int { client.requests.count }
    var stats: CacheStats { store.stats()[RatesService.namespaceName] ?? CacheStats() }

}


extension HTTPResponse {
    var ratesText: String { String(decoding: body, as: UTF8.self) }
    var ratesJSON: JSONValue? { try? JSONParser.parse(body) }
}

/// Every rates endpoint through the app's pipeline, shapes field by field.
@Suite struct RatesRoutesTests {
    @Test func ratesDefaultBaseIsBTC() async throws {
        let h = RatesHarness()
        let (r, _) = await h.get("/v1/rates")
        #expect(r.status == .ok)
        #expect(r.headers["Content-Type"] == "application/json; charset=utf-8")
        let json = try #require(r.ratesJSON)
        #expect(json["base"] == .string("BTC"))
        #expect(json["updated"] == .string("2015-09-28T01:23:00Z"))
        #expect(json["source"] == .string("coinbase"))
        #expect(json["rates"]?["USD"] == .object(["code": .string("USD"), "name": .string("United States Dollar"),
                                                 "symbol": .string("$"), "rate": .number("91234.56")]))
        #expect(json["rates"]?["BTC"]?["rate"] == .number("1"))
        #expect(json["rates"]?["ETH"]?["symbol"] == .null)
    }

    @Test func ratesWithBaseAndSymbols() async throws {
        let h = RatesHarness()
        let (r, _) = await h.get("/v1/rates?base=eur&symbols=usd,GBP,usd&unknown=ignored")
        #expect(r.ratesText == #"{"base":"EUR","updated":"2015-09-28T01:23:00Z","source":"coinbase","rates":{"#
            + #""GBP":{"code":"GBP","name":"British Pound Sterling","symbol":"£","rate":0.857147585027259},"#
            + #""USD":{"code":"USD","name":"United States Dollar","symbol":"$","rate":1.08612416267977}}}"#)
    }

    @Test func oneRate() async throws {
        let h = RatesHarness()
        let (r, _) = await h.get("/v1/rates/jpy?base=USD")
        #expect(r.status == .ok)
        // 13700000 / 91234.56 = 150.162394601344052…
        #expect(r.ratesText == #"{"base":"USD","code":"JPY","name":"Japanese Yen","symbol":"¥","rate":150.162394601344,"updated":"2015-09-28T01:23:00Z","source":"coinbase"}"#)
        let btc = await h.get("/v1/rates/USD").response
        #expect(btc.ratesJSON?["rate"] == .number("91234.56"))
        #expect(btc.ratesJSON?["base"] == .string("BTC"))
    }

    @Test func convert() async throws {
        let h = RatesHarness()
        let r = await h.get("/v1/convert?from=EUR&to=USD&amount=100").response
        #expect(r.ratesText == #"{"from":"EUR","to":"USD","amount":100,"rate":1.08612416267977,"result":108.612416267977,"updated":"2015-09-28T01:23:00Z","source":"coinbase"}"#)
        let btc = await h.get("/v1/convert?from=btc&to=usd&amount=0.5").response
        #expect(btc.ratesJSON?["result"] == .number("45617.28"))
        let defaultAmount = await h.get("/v1/convert?from=USD&to=USD").response
        #expect(defaultAmount.ratesJSON?["amount"] == .number("1"))
        #expect(defaultAmount.ratesJSON?["result"] == .number("1"))
    }

    @Test func currencies() async throws {
        let h = RatesHarness()
        let r = await h.get("/v1/currencies").response
        #expect(r.status == .ok)
        let json = try #require(r.ratesJSON)
        guard case let .object(all) = json else { Issue.record("not an object"); return }
        #expect(all.keys.sorted() == ["BTC", "ETH", "EUR", "GBP", "JPY", "USD"])
        #expect(json["EUR"] == .object(["code": .string("EUR"), "name": .string("Euro"), "symbol": .string("€")]))
        #expect(json["ETH"] == .object(["code": .string("ETH"), "name": .string("ETH"), "symbol": .null]))
    }

    @Test func failoverToSecondProviderShowsItsSource() async throws {
        let h = RatesHarness()
        h.script("coinbase", .body("<html>oops</html>"))
        let r = await h.get("/v1/rates/USD").response
        #expect(r.status == .ok)
        #expect(r.ratesJSON?["source"] == .string("coingecko"))
        #expect(r.ratesJSON?["rate"] == .number("90000.5"))
        #expect(h.client.requests.map(\.provider) == ["coinbase", "coingecko"])
    }

    @Test func registersEveryDocumentedPattern() {
        let h = RatesHarness()
        #expect(h.router.routes.map(\.pattern) == RatesRoutes.patterns)
        #expect(h.router.routes.allSatisfy { $0.method == "GET" })
    }
}
