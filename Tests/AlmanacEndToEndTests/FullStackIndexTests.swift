import Base
import Foundation
import HTTPClientTestSupport
import Rates
import TestSupport
import Testing
@testable import Almanac

extension FullStackTests {
    /// The price index over real sockets: the five exchanges emulated on loopback (`IndexStub`),
    /// the chain (coinbase) for the crosses, the app's real HTTP client and steward.
    @Suite struct PriceIndexAPI {
        /// The index on, every constituent at the stub, budgets out of the way.
        static func withIndex(_ c: inout AlmanacConfiguration) {
            FullStack.unthrottled(&c)
            c.rates.index.providers = IndexStub.providers
        }

        static func script(_ exchanges: IndexStub) -> (StubUpstream) -> Void {
            { stub in
                FullStackFixtures.scriptAll(stub)
                exchanges.install(on: stub)
            }
        }

        /// `source`'s line in a currency of `/v1/index`.
        static func line(_ index: JSONValue?, _ currency: String, _ provider: String) -> JSONValue? {
            guard case let .array(sources)? = index?["currencies"]?[currency]?["sources"] else { return nil }
            return sources.first { $0["provider"] == .string(provider) }
        }

        static func decimal(_ value: JSONValue?) -> Decimal? {
            guard case let .number(text)? = value else { return nil }
            return DecimalText.parse(text)
        }

        @Test func allFiveAgreeTheIndexServesEveryRate() async throws {
            let exchanges = IndexStub()
            try await FullStack.run(configure: Self.withIndex, script: Self.script(exchanges)) { s in
                let rates = try await s.get("/v1/rates")
                #expect(rates.status == 200)
                #expect(rates.json?["source"] == .string("index"))
                let usd = IndexStub.trueIndex("USD")
                #expect(Self.decimal(rates.json?["rates"]?["USD"]?["rate"]) == usd)
                #expect(Self.decimal(rates.json?["rates"]?["EUR"]?["rate"]) == IndexStub.trueIndex("EUR"))
                #expect(Self.decimal(rates.json?["rates"]?["GBP"]?["rate"]) == IndexStub.trueIndex("GBP"))
                // JPY follows the USD index through coinbase's USD→JPY cross.
                let jpy = DecimalText.rounded(usd * 13_700_000 / (DecimalText.parse("91234.56") ?? 1), significantDigits: 15)
                #expect(Self.decimal(rates.json?["rates"]?["JPY"]?["rate"]) == jpy)
                let index = try await s.get("/v1/index")
                #expect(index.status == 200)
                #expect(index.keys == ["crosses", "currencies", "maxDeviationPercent", "quorum", "updated"])
                #expect(index.json?["quorum"] == .number("3"))
                #expect(index.json?["crosses"] == .string("coinbase"))
                #expect(Self.decimal(index.json?["currencies"]?["USD"]?["value"]) == usd)
                let bitstamp = Self.line(index.json, "USD", "bitstamp")
                #expect(bitstamp?["status"] == .string("used"))
                #expect(bitstamp?["price"] == .number("43251"))
                #expect(isISO8601UTC(bitstamp?["time"]))
                // One refresh fetched each ticker once; hits fetch nothing more.
                _ = try await s.get("/v1/rates/EUR")
                _ = try await s.get("/v1/bpi/currentprice.json")
                for provider in IndexStub.providers where provider != "kraken" {
                    for path in IndexStub.paths(provider) { #expect(s.count(path) == 1, "\(path)") }
                }
                #expect(s.count(IndexStub.path("kraken")) == 3)
                // The CoinDesk drop-in: the index's numbers, its constituents named.
                let bpi = try await s.get("/v1/bpi/currentprice.json")
                guard case let .string(disclaimer)? = bpi.json?["disclaimer"] else { Issue.record("no disclaimer"); return }
                #expect(disclaimer.contains("coinbase-exchange, bitstamp, kraken, gemini, bitfinex"), "\(disclaimer)")
                #expect(bpi.json?["bpi"]?["USD"]?["rate_float"] == .number(DecimalText.rounded(usd, scale: 4).description))
                let metrics = try await s.get("/metrics").text
                #expect(metricValue(metrics, "almanac_rates_index_sources", ["currency": "USD", "status": "used"]) == 5)
                #expect(metricValue(metrics, "almanac_rates_index_degraded") == 0)
            }
        }

        @Test(arguments: ["10", "0.5"])
        func oneExchangeMisprintingMovesNoRate(factor: String) async throws {
            let exchanges = IndexStub()
            exchanges.misprint("gemini", factor: DecimalText.parse(factor))
            try await FullStack.run(configure: Self.withIndex, script: Self.script(exchanges)) { s in
                let rate = try await s.get("/v1/rates/USD")
                #expect(rate.json?["source"] == .string("index"))
                #expect(Self.decimal(rate.json?["rate"]) == IndexStub.trueIndex("USD", without: ["gemini"]))
                let index = try await s.get("/v1/index")
                let gemini = Self.line(index.json, "USD", "gemini")
                #expect(gemini?["status"] == .string("deviates"))
                guard case let .string(detail)? = gemini?["detail"] else { Issue.record("no detail"); return }
                #expect(detail.hasSuffix("% from the median"))
                // The median is taken before the filter, of all five prices as served.
                let served = IndexStub.providers.map { exchanges.price($0, "USD") }
                #expect(Self.decimal(index.json?["currencies"]?["USD"]?["median"]) == IndexRule.median(served))
            }
        }

        @Test func twoExchangesDownLeaveTheIndexOnThree() async throws {
            let exchanges = IndexStub()
            try await FullStack.run(configure: Self.withIndex, script: Self.script(exchanges)) { s in
                for provider in ["kraken", "bitfinex"] {
                    for path in IndexStub.paths(provider) { s.stub.setFault(.status(503), for: path) }
                }
                let rates = try await s.get("/v1/rates")
                #expect(rates.json?["source"] == .string("index"))
                #expect(Self.decimal(rates.json?["rates"]?["USD"]?["rate"]) == IndexStub.trueIndex("USD", without: ["kraken", "bitfinex"]))
                let index = try await s.get("/v1/index")
                #expect(Self.line(index.json, "EUR", "kraken")?["status"] == .string("failed"))
                #expect(Self.line(index.json, "EUR", "kraken")?["detail"] == .string("kraken: HTTP 503"))
                #expect(index.json?["currencies"]?["GBP"]?["fallback"] == nil)
                let metrics = try await s.get("/metrics").text
                #expect(metricValue(metrics, "almanac_rates_index_sources", ["currency": "EUR", "status": "failed"]) == 2)
                #expect(metricValue(metrics, "almanac_rates_index_degraded") == 0)
            }
        }

        @Test func threeExchangesDownFallBackToTheChainAndSaySo() async throws {
            let exchanges = IndexStub()
            try await FullStack.run(configure: Self.withIndex, script: Self.script(exchanges)) { s in
                for provider in ["kraken", "bitfinex", "coinbase-exchange"] {
                    for path in IndexStub.paths(provider) { s.stub.setFault(.status(503), for: path) }
                }
                let rates = try await s.get("/v1/rates")
                #expect(rates.json?["source"] == .string("coinbase"))
                #expect(rates.json?["rates"]?["USD"]?["rate"] == .number("91234.56"))
                let index = try await s.get("/v1/index")
                #expect(index.json?["currencies"]?["USD"]?["value"] == .null)
                #expect(index.json?["currencies"]?["USD"]?["fallback"] == .string("coinbase"))
                let bpi = try await s.get("/v1/bpi/currentprice.json")
                guard case let .string(disclaimer)? = bpi.json?["disclaimer"] else { Issue.record("no disclaimer"); return }
                #expect(disclaimer.contains("coinbase exchange rates"), "\(disclaimer)")
                let metrics = try await s.get("/metrics").text
                #expect(metricValue(metrics, "almanac_rates_index_degraded") == 1)
            }
        }

        /// An exchange that accepts the request and never answers costs the refresh at most
        /// `upstream.timeoutMs`; the other four make the index.
        @Test func aStalledExchangeTimesOutAndTheRestServe() async throws {
            let exchanges = IndexStub()
            try await FullStack.run(configure: { c in
                Self.withIndex(&c)
                c.upstream.client.timeoutMs = 1000
            }, script: Self.script(exchanges)) { s in
                for path in IndexStub.paths("gemini") { s.stub.setFault(.hang, for: path) }
                let index = try await s.get("/v1/index")
                #expect(index.status == 200)
                let gemini = Self.line(index.json, "GBP", "gemini")
                #expect(gemini?["status"] == .string("failed"))
                guard case let .string(detail)? = gemini?["detail"] else { Issue.record("no detail: \(index.text)"); return }
                #expect(detail.hasPrefix("gemini: "), "\(detail)")
                #expect(Self.decimal(index.json?["currencies"]?["GBP"]?["value"]) == IndexStub.trueIndex("GBP", without: ["gemini"]))
            }
        }

        @Test func aTickerTenMinutesOldIsStale() async throws {
            let exchanges = IndexStub()
            exchanges.stale("bitstamp", seconds: 600)
            try await FullStack.run(configure: Self.withIndex, script: Self.script(exchanges)) { s in
                let index = try await s.get("/v1/index")
                let bitstamp = Self.line(index.json, "USD", "bitstamp")
                #expect(bitstamp?["status"] == .string("stale"))
                #expect(bitstamp?["detail"] == .string("ticker is 600 s old"))
                #expect(Self.decimal(index.json?["currencies"]?["USD"]?["value"]) == IndexStub.trueIndex("USD", without: ["bitstamp"]))
            }
        }

        /// forex-python's `BtcConverter`, unmodified, reads the index where it read CoinDesk's BPI
        /// (its latest price), and history as before.
        @Test func forexPythonBtcConverterReadsTheIndex() async throws {
            let exchanges = IndexStub()
            try await FullStack.run(configure: Self.withIndex, script: Self.script(exchanges)) { s in
                try await FullStackTests.HistoryAPI.runBtcConverter(s, latestUSD: IndexStub.trueIndex("USD").description)
            }
        }

        /// The coindeskr R package's reading (by position) gets the index, and the USD index
        /// crossed for JPY.
        @Test func coindeskrReadsTheIndexByPosition() async throws {
            let exchanges = IndexStub()
            try await FullStack.run(configure: Self.withIndex, script: Self.script(exchanges)) { s in
                let usd = IndexStub.trueIndex("USD")
                let jpy = DecimalText.rounded(usd * 13_700_000 / (DecimalText.parse("91234.56") ?? 1), significantDigits: 15)
                let expected: [(String, Decimal)] = [("USD", usd), ("EUR", IndexStub.trueIndex("EUR")), ("JPY", jpy)]
                for (currency, rate) in expected {
                    let read = try await FullStackTests.CoinDeskPositionalClients.coindeskrCurrentPrice(s, currency: currency)
                    let shown = Double(DecimalText.rounded(rate, scale: 4).description)
                    #expect(read == shown, "\(currency)")
                }
            }
        }

        @Test func indexOffAnswers404AndTheChainServes() async throws {
            try await FullStack.run { s in
                let index = try await s.get("/v1/index")
                index.expectProblem(404)
                #expect(try await s.get("/v1/rates").json?["source"] == .string("coinbase"))
            }
        }
    }
}

extension FullStackTests.Binary {
    /// Two real almanac processes sharing one real `redis-server`: gemini answers 429 with
    /// `Retry-After: 30` to the replica that refreshes the index first; after the cache is
    /// purged, the other replica's refresh skips gemini (the stub counts every request) and
    /// `/v1/index` says `skipped`.
    @Test(.enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
    func aConstituents429IsSkippedClusterWide() async throws {
        let exchanges = IndexStub()
        try await Cluster.run(size: 2, environment: ["ALMANAC_RATES_INDEX_PROVIDERS": IndexStub.providers.joined(separator: ",")],
                              script: { stub in
            FullStackFixtures.scriptAll(stub)
            exchanges.install(on: stub)
            for path in IndexStub.paths("gemini") {
                stub.route(path) { _ in StubResponse(status: 429, headers: [("Retry-After", "30")], body: Array("{}".utf8)) }
            }
        }) { cluster in
            let stub = cluster.stub
            let first = try await cluster.get(0, "/v1/index")
            #expect(first.status == 200)
            let met = IndexStub.paths("gemini").map { stub.requestCount(for: $0) }.reduce(0, +)
            #expect(met >= 1)
            #expect(FullStackTests.PriceIndexAPI.line(first.json, "USD", "gemini")?["status"] != .string("used"))
            let purge = try await cluster.admin(1, "DELETE", "/admin/cache/rates")
            #expect(purge.status == 200, "\(purge.text)")
            let second = try await cluster.get(1, "/v1/index")
            #expect(second.status == 200)
            for currency in IndexReport.currencies {
                #expect(FullStackTests.PriceIndexAPI.line(second.json, currency, "gemini")?["status"] == .string("skipped"), "\(second.text)")
            }
            #expect(IndexStub.paths("gemini").map { stub.requestCount(for: $0) }.reduce(0, +) == met, "replica two skipped gemini")
            #expect(second.json?["currencies"]?["USD"]?["value"] != .null)
        }
    }
}
