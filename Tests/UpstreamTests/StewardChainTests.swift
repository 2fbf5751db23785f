import Cache
import HTTPClient
import HTTPClientTestSupport
import Synchronization
import Testing
import TestSupport
@testable import Upstream

/// The chain with a steward, on an in-memory client and a manual clock: no sockets.
@Suite struct StewardChainTests {
    final class ManualClock: Sendable {
        private let seconds = Mutex(0.0)
        var now: Double { seconds.withLock { $0 } }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    /// "a" then "b"; each provider makes one GET.
    func chain(_ steward: Steward, client: StubHTTPClient) -> ProviderChain<String> {
        .named(["a", "b"], client: client, steward: steward)
    }

    func steward(_ clock: ManualClock, changes: Locked<[String]>? = nil,
                 configure: (inout StewardConfiguration) -> Void = { _ in }) -> Steward {
        var configuration = StewardConfiguration()
        configure(&configuration)
        return Steward(configuration: configuration, clock: { clock.now },
                       onChange: { provider, change in changes?.append("\(provider) \(change)") })
    }

    @Test func a429SkipsTheProviderUntilRetryAfterAndTheNextAnswers() async throws {
        let clock = ManualClock()
        let changes = Locked<[String]>([])
        let client = StubHTTPClient { request in
            request.provider == "a" ? UpstreamResponse(status: 429, headers: ["Retry-After": "2"]) : StubHTTPClient.json("{}")
        }
        let steward = steward(clock, changes: changes)
        #expect(try await chain(steward, client: client).answer() == "B")
        #expect(try await chain(steward, client: client).answer() == "B")
        #expect(client.requests.map(\.provider) == ["a", "b", "b"], "a is skipped while cooling down")
        #expect(steward.skippedCounts()["a"]?[ProviderSkipped.Reason.cooldown] == 1)
        clock.advance(2)
        _ = try await chain(steward, client: client).answer()
        #expect(client.requests.filter { $0.provider == "a" }.count == 2, "after Retry-After, one probe")
        #expect(changes.value.count == 1, "one change: the cooldown began (the probe met another 429)")
    }

    @Test func everyFailureIsReportedOnceEvenWhenALaterProviderAnswers() async throws {
        let clock = ManualClock()
        let reported = Locked<[String]>([])
        let client = StubHTTPClient { request in
            request.provider == "a" ? UpstreamResponse(status: 503) : StubHTTPClient.json("{}")
        }
        let steward = Steward(configuration: StewardConfiguration(), clock: { clock.now },
                              onFailure: { reported.append($0.provider) })
        #expect(try await chain(steward, client: client).answer() == "B")
        #expect(reported.value == ["a"], "a's 503, recovered by b, reported once")
    }

    @Test func everyProviderSkippedCarriesWhenToRetry() async throws {
        let clock = ManualClock()
        let client = StubHTTPClient { _ in
            await Task.yield()
            return UpstreamResponse(status: 429, headers: ["Retry-After": "3"])
        }
        let steward = steward(clock)
        await #expect(throws: ProvidersUnavailable.self) { try await chain(steward, client: client).answer() }
        clock.advance(1)
        do {
            _ = try await chain(steward, client: client).answer()
            Issue.record("expected a failure")
        } catch let unavailable as ProvidersUnavailable {
            #expect(unavailable.failures.isEmpty)
            #expect(unavailable.skipped.map(\.reason) == [.cooldown, .cooldown])
            #expect(unavailable.retryAfterSeconds == 2)
            #expect(!unavailable.isTimeout)
        }
    }

    @Test func aSpentDeadlineIsATimeoutForProvidersNotAsked() async throws {
        let clock = ManualClock()
        let client = StubHTTPClient { request in
            if request.provider == "a" { clock.advance(0.08) }  // a takes 80 ms of the steward's clock
            return UpstreamResponse(status: 503)
        }
        let steward = steward(clock) { $0.requestDeadlineMs = 50 }
        do {
            _ = try await chain(steward, client: client).answer()
            Issue.record("expected a failure")
        } catch let unavailable as ProvidersUnavailable {
            #expect(unavailable.failures.map(\.provider) == ["a", "b"])
            #expect(unavailable.failures.last?.kind == .timeout)
            #expect(unavailable.failures.last?.detail.contains("not asked") == true)
        }
        #expect(client.requests.map(\.provider) == ["a"])
    }

    @Test func aBackgroundRefreshLeavesTheLastTokenToForegroundMisses() async throws {
        let clock = ManualClock()
        let client = StubHTTPClient { _ in StubHTTPClient.json("{}") }
        let steward = steward(clock) { $0.budgets["a"] = ProviderBudget(maxRequestsPerSecond: 1, burst: 2) }
        #expect(try await chain(steward, client: client).answer(background: true) == "A")
        #expect(try await chain(steward, client: client).answer(background: true) == "B", "a's last token is kept")
        #expect(try await chain(steward, client: client).answer() == "A", "a foreground miss spends it")
        #expect(steward.skippedCounts()["a"]?[ProviderSkipped.Reason.budget] == 1)
    }

    /// A chain asked from inside a cache's background refresh (history blocks are refreshed by
    /// loads that a foreground request's chain started) is treated as background too.
    @Test func attemptsInsideACacheRefreshAreBackground() async throws {
        let clock = ManualClock()
        let client = StubHTTPClient { _ in StubHTTPClient.json("{}") }
        let steward = steward(clock) { $0.budgets["a"] = ProviderBudget(maxRequestsPerSecond: 1, burst: 2) }
        #expect(try await chain(steward, client: client).answer() == "A")
        let refreshed = try await CacheRefresh.$isBackground.withValue(true) {
            try await chain(steward, client: client).answer()
        }
        #expect(refreshed == "B", "inside a refresh, a's last token is kept for foreground misses")
        #expect(try await chain(steward, client: client).answer() == "A")
    }
}
