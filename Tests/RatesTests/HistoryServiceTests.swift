import Cache
import HTTPClient
import HTTPClientTestSupport
import Synchronization
import Testing
import TestSupport
import Upstream
@testable import Rates

/// The service on the loopback history stubs, with a settable wall clock and cache clock.
final class HistoryHarness: Sendable {
    let stub: StubUpstream
    let service: HistoryService
    let wall = Locked<Int64>(HistoryServiceTests.today * 86_400 + 43_200)
    let cacheClock = ManualCacheClock()
    let closedThrough = Locked<Int64>(.max)

    init(providers: [String] = HistoryConfiguration().providers) throws {
        stub = try StubUpstream()
        let closed = closedThrough, wall = self.wall
        HistoryStub.script(stub) { closed.value }
        var http = HTTPClientConfiguration()
        http.retries = 0
        http.timeoutMs = 10_000
        var config = HistoryConfiguration()
        config.providers = providers
        for id in ["bitstamp", "coinbase-exchange", "frankfurter"] { config.endpoints[id].baseURL = stub.baseURL }
        service = HistoryService(configuration: config, client: CurlHTTPClient(configuration: http),
                                 cache: CacheStore(limits: CacheLimits(), clock: cacheClock, randomUnit: { 0 }),
                                 now: { wall.value })
    }

    func requests(_ prefix: String) -> Int { stub.requests.filter { $0.path.hasPrefix(prefix) }.count }
    deinit { stub.stop() }
}

/// `HistoryService` through the real `CurlHTTPClient` against the loopback history stubs, with
/// an injected wall clock and cache clock: request counts per cold range, warm ranges costing
/// nothing, shared flights, fall-through, and days that are not final.
@Suite struct HistoryServiceTests {
    /// 2024-06-01.
    static let today: Int64 = 19_875
    static let yesterday = today - 1

    static func expectedUSD(_ provider: String, _ day: Int64) -> Int64 {
        HistoryStubSeries.closeCents(provider, "USD", day: day) * 1_000_000
    }

    @Test func aColdTenYearRangeCostsAtMostTheBoundAndAWarmOneNothing() async throws {
        let h = try HistoryHarness()
        let days = (Self.yesterday - 3_651)...Self.yesterday
        let closes = try await h.service.closes(["USD"], days: days)
        #expect(h.requests(HistoryStub.bitstampPrefix) <= 3_652 / 1_000 + 2)
        #expect(h.requests(HistoryStub.coinbaseExchangePrefix) == 0)
        #expect(h.requests(HistoryStub.frankfurterPrefix) == 0)
        for day in days { #expect(closes.value("USD", day: day) == Self.expectedUSD("bitstamp", day)) }
        #expect(closes.source == "bitstamp")
        #expect(closes.freshness.outcome == .miss)

        let before = h.stub.totalRequests
        let warm = try #require(h.service.freshCloses(["USD"], days: days))
        #expect(warm.freshness.outcome == .hit && warm.validator == closes.validator)
        _ = try await h.service.closes(["USD"], days: (Self.yesterday - 2_000)...(Self.yesterday - 10))
        #expect(h.stub.totalRequests == before)
    }

    @Test func ecbCurrenciesCrossTheUSDCloseWithTheLatestBusinessDay() async throws {
        let h = try HistoryHarness()
        let days = (Self.yesterday - 1_000)...Self.yesterday
        let closes = try await h.service.closes(["JPY", "BTC"], days: days)
        #expect(h.requests(HistoryStub.frankfurterPrefix) <= (1_001 + 10) / 366 + 2)
        #expect(closes.source == "bitstamp+frankfurter")
        for day in days {
            var rateDay = day
            while HistoryStubSeries.fxTenThousandths("JPY", day: rateDay) == nil { rateDay -= 1 }
            let rate = HistoryStubSeries.fxTenThousandths("JPY", day: rateDay)! * 10_000
            #expect(closes.value("JPY", day: day) == HistoryFixed.product(Self.expectedUSD("bitstamp", day), rate))
            #expect(closes.value("BTC", day: day) == HistoryFixed.one)
        }
    }

    @Test func concurrentOverlappingColdRangesShareUpstreamRequests() async throws {
        let h = try HistoryHarness()
        let base = Self.yesterday - 2_999
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<12 {
                let start = base + Int64(n * 150)
                group.addTask { _ = try await h.service.closes(["USD"], days: start...(start + 1_200)) }
            }
            try await group.waitForAll()
        }
        let plan = BitstampHistoryProvider().plan
        let blocks = plan.indexes(covering: base...(base + 11 * 150 + 1_200)).count
        #expect(h.requests(HistoryStub.bitstampPrefix) == blocks)
    }

    @Test func aFailingExchangeFallsThroughAndEarlyDaysGoToTheExchangeThatHoldsThem() async throws {
        let h = try HistoryHarness(providers: ["coinbase-exchange", "bitstamp"])
        let days = HistoryDay.parse("2015-07-01")!...HistoryDay.parse("2015-08-31")!
        let closes = try await h.service.closes(["USD"], days: days)
        #expect(closes.source == "coinbase-exchange+bitstamp")
        for day in days {
            let provider = day >= CoinbaseExchangeHistoryProvider.earliest ? "coinbase-exchange" : "bitstamp"
            #expect(closes.value("USD", day: day) == Self.expectedUSD(provider, day))
        }

        let failing = try HistoryHarness()
        failing.stub.setFault(.status(503), for: "/api/v2/ohlc/btcusd/")
        let recent = (Self.yesterday - 400)...Self.yesterday
        let fallen = try await failing.service.closes(["USD"], days: recent)
        #expect(fallen.source == "coinbase-exchange")
        #expect(fallen.value("USD", day: Self.yesterday) == Self.expectedUSD("coinbase-exchange", Self.yesterday))
        // Days only bitstamp holds cannot be had: an error naming it, not a silent gap.
        await #expect(throws: ProvidersUnavailable.self) {
            _ = try await failing.service.closes(["USD"], days: HistoryDay.parse("2014-01-01")!...HistoryDay.parse("2016-01-01")!)
        }
    }

    @Test func aDayTheExchangeHasNotClosedIsRetriedAndTodayIsNeverServed() async throws {
        let h = try HistoryHarness()
        h.closedThrough.set(Self.yesterday - 1)     // the exchange lags behind midnight
        let days = (Self.yesterday - 5)...(Self.yesterday + 3)    // asks past yesterday: cut
        let first = try await h.service.closes(["USD"], days: days)
        #expect(first.days.upperBound == Self.yesterday)
        #expect(first.value("USD", day: Self.yesterday) == nil)
        #expect(first.freshness.freshnessLeftSeconds <= 60)
        let afterFirst = h.requests(HistoryStub.bitstampPrefix)
        #expect(afterFirst == 1)

        h.closedThrough.set(.max)
        h.cacheClock.advance(by: 61)
        let second = try await h.service.closes(["USD"], days: days)
        #expect(second.value("USD", day: Self.yesterday) == Self.expectedUSD("bitstamp", Self.yesterday))
        // Every day it holds has closed: clients may keep it for the history TTL, although the
        // block itself is replaced at midnight.
        #expect(second.freshness.freshnessLeftSeconds > 29 * 86_400)
        #expect(h.requests(HistoryStub.bitstampPrefix) == 2)
        // Until midnight the block is fresh; after it, the next day is asked for.
        #expect(h.service.freshCloses(["USD"], days: days) != nil)
        h.wall.increment(by: 86_400)
        let nextDay = try await h.service.closes(["USD"], days: days.lowerBound...(Self.yesterday + 1))
        #expect(nextDay.value("USD", day: Self.yesterday + 1) == Self.expectedUSD("bitstamp", Self.yesterday + 1))
        #expect(nextDay.value("USD", day: Self.today + 1) == nil)
        #expect(h.requests(HistoryStub.bitstampPrefix) == 3)
    }
}
