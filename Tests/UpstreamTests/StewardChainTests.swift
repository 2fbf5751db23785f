import Base
import Cache
import HTTPClient
import HTTPClientTestSupport
import Testing
import TestSupport
@testable import Upstream

/// The chain with a steward, on an in-memory client and a manual clock: no sockets.
@Suite(.timeLimit(.minutes(1))) struct StewardChainTests {
    /// "a" then "b"; each provider makes one GET.
    func chain(_ steward: Steward, client: StubHTTPClient) -> ProviderChain<String> {
        .named(["a", "b"], client: client, steward: steward)
    }

    func steward(_ clock: ManualClock, changes: Locked<[String]>? = nil,
                 configure: (inout StewardConfiguration) -> Void = { _ in }) -> Steward {
        var configuration = StewardConfiguration()
        configure(&configuration)
        return Steward(configuration: configuration, clock: clock,
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
        clock.advance(by: 2)
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
        let steward = Steward(configuration: StewardConfiguration(), clock: clock,
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
        clock.advance(by: 1)
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
            if request.provider == "a" { clock.advance(by: 0.08) }  // a takes 80 ms of the steward's clock
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

    /// "a" holds one token and earns the next in 100 s; a request may queue that long for it.
    func slowBudgetSteward(_ clock: ManualClock) -> Steward {
        steward(clock) {
            $0.budgets["a"] = ProviderBudget(maxRequestsPerSecond: 0.01, burst: 1)
            $0.maxQueueMs = 200_000
            $0.providerTimeoutMs = 300_000
            $0.requestDeadlineMs = 300_000
        }
    }

    /// A request that must wait for a budget token waits on the steward's clock: it is sent
    /// when the manual clock reaches the token, not after the real seconds the budget names
    /// (100 s here, past the suite's time limit).
    @Test func aWaitForATokenIsOnTheStewardsClock() async throws {
        let clock = ManualClock()
        let client = StubHTTPClient { _ in StubHTTPClient.json("{}") }
        let steward = slowBudgetSteward(clock)
        #expect(try await chain(steward, client: client).answer() == "A", "the one token")
        let waiting = Task { try await chain(steward, client: client).answer() }
        #expect(await waitUntil { clock.sleepers == 1 }, "the second request waits for a token")
        #expect(client.requests.count == 1)
        clock.advance(by: 99)
        #expect(clock.sleepers == 1, "still waiting: the token is due at 100 s")
        clock.advance(by: 1)
        #expect(try await waiting.value == "A", "sent once the clock reached the token, to the same provider")
        #expect(client.requests.map(\.provider) == ["a", "a"])
    }

    /// A caller that goes away while its request waits for a token gives the token back and
    /// leaves nothing waiting on the clock.
    @Test func aCallerLeavingWhileItWaitsForATokenStopsWaiting() async throws {
        let clock = ManualClock()
        let client = StubHTTPClient { _ in StubHTTPClient.json("{}") }
        let steward = slowBudgetSteward(clock)
        _ = try await chain(steward, client: client).answer()
        let waiting = Task { try await chain(steward, client: client).answer() }
        #expect(await waitUntil { clock.sleepers == 1 })
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(clock.sleepers == 0)
        #expect(client.requests.count == 1, "nothing was sent for the caller that left")
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
