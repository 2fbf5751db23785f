import Testing
@testable import Upstream
@testable import SharedSteward

/// The script's `ARGV`, built without sockets.
@Suite struct StewardScriptCallTests {
    func call(_ operation: StewardScriptCall.Operation, pinned: Double? = nil,
              budget: ProviderBudget = ProviderBudget(maxRequestsPerSecond: 5, burst: 10)) -> [String] {
        StewardScriptCall(operation: operation, pinnedNow: pinned, limits: StewardLimits(), budget: budget).arguments
    }

    @Test func theCommonPartCarriesTheRulesAndRedisTimeByDefault() {
        let args = call(.allowsRetry(retriesInFlight: 2))
        // op, clock, rate, burst, max cooldown, breaker failures, retry %, stale probe, first and
        // longest opening, retry window, TTL, longest queue wait; then retries in flight and the floor.
        #expect(args == ["retry", "", "5.0", "10", "300.0", "5", "10", "8.0", "1.0", "60.0", "10", "600000", "0.25", "2", "3"])
        #expect(call(.allowsRetry(retriesInFlight: 0), pinned: 12.5)[1] == "12.5")
    }

    @Test func eachOperationAppendsItsOwnArguments() {
        #expect(call(.admit(AdmissionRequest(maxWaitSeconds: 0.25, background: true, isRetry: false))).suffix(3)
            == ["0.25", "1", "0"])
        #expect(call(.abandon(AdmissionTicket(cooldownProbe: true, breakerProbe: false))).suffix(2) == ["1", "0"])
        #expect(call(.record(AdmissionTicket(breakerProbe: true), .stop(retryAfterSeconds: 3))).suffix(4)
            == ["0", "1", "stop", "3.0"])
        #expect(call(.record(AdmissionTicket(), .stop(retryAfterSeconds: nil))).suffix(2) == ["stop", ""])
        #expect(call(.record(AdmissionTicket(), .failure)).suffix(2) == ["failure", ""])
        #expect(call(.record(AdmissionTicket(), .answered)).suffix(2) == ["answered", ""])
        #expect(call(.record(AdmissionTicket(), .cancelled)).suffix(2) == ["cancelled", ""])
    }

    @Test func valuesLuaCannotReadAreClampedAsTheLocalRulesClampThem() {
        // A Retry-After that is not finite is no Retry-After (`Cooldown.stop`).
        #expect(call(.record(AdmissionTicket(), .stop(retryAfterSeconds: .infinity))).last == "")
        #expect(call(.record(AdmissionTicket(), .stop(retryAfterSeconds: .nan))).last == "")
        #expect(StewardScriptCall.number(.infinity) == "1000000000000000.0")
        #expect(StewardScriptCall.number(-.infinity) == "-1000000000000000.0")
        #expect(StewardScriptCall.number(.nan) == "0")
        #expect(call(.admit(AdmissionRequest(maxWaitSeconds: -1)))[13] == "0.0")
        // A negative rate or a zero burst: as `TokenBucket` reads them.
        let odd = call(.allowsRetry(retriesInFlight: -1), budget: ProviderBudget(maxRequestsPerSecond: -3, burst: 0))
        #expect(odd[13] == "0")
        #expect(odd[2] == "0.0" && odd[3] == "1")
    }

    @Test func keysAndTheirLifetime() {
        let layout = StewardKeyLayout(keyPrefix: Array("almanac:".utf8))
        #expect(layout.key(for: "google-books") == Array("almanac:steward:google-books".utf8))
        var limits = StewardLimits()
        // The longest part: the cooldown cap (300 s), doubled.
        #expect(StewardKeyLayout.ttlMilliseconds(limits: limits, budget: .unlimited) == 600_000)
        limits.maxCooldownSeconds = 5
        // The breaker's longest opening (60 s), doubled.
        #expect(StewardKeyLayout.ttlMilliseconds(limits: limits, budget: .unlimited) == 120_000)
        // An empty bucket refilling slowly (20 tokens at 0.2/s: 100 s), doubled.
        #expect(StewardKeyLayout.ttlMilliseconds(limits: limits, budget: ProviderBudget(maxRequestsPerSecond: 0.2)) == 200_000)
        // Capped at a day.
        #expect(StewardKeyLayout.ttlMilliseconds(limits: limits, budget: ProviderBudget(maxRequestsPerSecond: 0.0001)) == 86_400_000)
        limits.maxCooldownSeconds = .infinity
        #expect(StewardKeyLayout.ttlMilliseconds(limits: limits, budget: .unlimited) == 120_000)
    }
}
