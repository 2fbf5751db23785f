import Foundation
import HTTPClient
import Testing
@testable import Upstream

/// The four machines composed, as the steward drives them, on a manual clock.
@Suite struct ProviderGuardTests {
    func makeGuard(rate: Double = 0, burst: Int = 20, failures: Int = 5) -> ProviderGuard {
        var limits = StewardLimits()
        limits.breakerFailures = failures
        return ProviderGuard(limits: limits, budget: ProviderBudget(maxRequestsPerSecond: rate, burst: burst), now: 0)
    }

    let go = AdmissionRequest(maxWaitSeconds: 0.25)

    @Test func aStopSkipsTheProviderUntilRetryAfterThenOneProbe() {
        var g = makeGuard()
        guard case .admitted(let ticket, _) = g.admit(go, now: 0) else { Issue.record("not admitted"); return }
        do { let ok = g.record(.stop(retryAfterSeconds: 1), ticket: ticket, now: 0) == [.cooldownStarted(seconds: 1)]; #expect(ok) }
        do { let ok = g.admit(go, now: 0.5) == .skipped(.cooldown, availableInSeconds: 0.5); #expect(ok) }
        #expect(!g.allowsRetry(now: 0.5, retriesInFlight: 0))
        guard case .admitted(let probe, _) = g.admit(go, now: 1.2) else { Issue.record("no probe"); return }
        #expect(probe.cooldownProbe)
        #expect(g.gaugeValue(now: 1.2) == 2)
        do { let ok = g.admit(go, now: 1.3) == .skipped(.cooldown, availableInSeconds: 1); #expect(ok) }
        do { let ok = g.record(.answered, ticket: probe, now: 1.4) == [.cooldownEnded]; #expect(ok) }
        #expect(g.gaugeValue(now: 1.4) == 0)
    }

    @Test func aSkippedRequestCostsNoToken() {
        var g = makeGuard(rate: 1, burst: 1)
        guard case .admitted(let ticket, _) = g.admit(go, now: 0) else { Issue.record("not admitted"); return }
        _ = g.record(.stop(retryAfterSeconds: 5), ticket: ticket, now: 0)
        do { let ok = g.admit(go, now: 1) == .skipped(.cooldown, availableInSeconds: 4); #expect(ok) }
        #expect(g.bucket.tokens(now: 1) == 1)
    }

    @Test func failuresOpenTheBreakerAndTheProbeClosesIt() {
        var g = makeGuard(failures: 2)
        var changes: [StewardChange] = []
        for _ in 0..<2 {
            guard case .admitted(let ticket, _) = g.admit(go, now: 0) else { Issue.record("not admitted"); return }
            changes += g.record(.failure, ticket: ticket, now: 0)
        }
        #expect(changes == [.breakerOpened(seconds: 1, failures: 2)])
        do { let ok = g.admit(go, now: 0.5) == .skipped(.breaker, availableInSeconds: 0.5); #expect(ok) }
        guard case .admitted(let probe, _) = g.admit(go, now: 1) else { Issue.record("no probe"); return }
        #expect(probe.breakerProbe)
        do { let ok = g.record(.answered, ticket: probe, now: 1.1) == [.breakerClosed]; #expect(ok) }
    }

    @Test func aBudgetRefusalIsABudgetSkip() {
        var g = makeGuard(rate: 1, burst: 1)
        guard case .admitted = g.admit(go, now: 0) else { Issue.record("not admitted"); return }
        do { let ok = g.admit(AdmissionRequest(maxWaitSeconds: 0.25), now: 0) == .skipped(.budget, availableInSeconds: 1); #expect(ok) }
    }

    @Test func takingATokenAloneSpendsTheBudgetButNoProbeSlot() {
        var g = makeGuard(rate: 1, burst: 2, failures: 1)
        guard case .admitted(let first, _) = g.admit(go, now: 0) else { Issue.record("not admitted"); return }
        _ = g.record(.failure, ticket: first, now: 0)
        // The breaker is open, yet the budget alone is asked: a token goes, no probe is taken.
        do { let ok = g.takeToken(go, now: 0.5) == .admitted(AdmissionTicket(), waitSeconds: 0); #expect(ok) }
        do { let ok = g.takeToken(AdmissionRequest(maxWaitSeconds: 0.25), now: 0.5) == .skipped(.budget, availableInSeconds: 0.5); #expect(ok) }
        do { let ok = g.takeToken(AdmissionRequest(maxWaitSeconds: 1), now: 0.5) == .admitted(AdmissionTicket(), waitSeconds: 0.5); #expect(ok) }
        #expect(g.retries.counts(now: 0.5) == (requests: 3, retries: 0))
        guard case .admitted(let probe, _) = g.admit(AdmissionRequest(maxWaitSeconds: 2), now: 1) else { Issue.record("no probe"); return }
        #expect(probe.breakerProbe)
        // An empty ticket gives the token back and nothing else.
        g.abandon(AdmissionTicket(), now: 1)
        #expect(g.breaker.gaugeValue == 2)
    }

    @Test func abandoningGivesTheTokenAndTheProbeBack() {
        var g = makeGuard(rate: 1, burst: 1, failures: 1)
        guard case .admitted(let first, _) = g.admit(go, now: 0) else { Issue.record("not admitted"); return }
        _ = g.record(.failure, ticket: first, now: 0)
        guard case .admitted(let probe, _) = g.admit(go, now: 1) else { Issue.record("no probe"); return }
        g.abandon(probe, now: 1)
        guard case .admitted(let again, _) = g.admit(go, now: 1) else { Issue.record("slot not freed"); return }
        #expect(again.breakerProbe)
    }

    @Test func outcomesAreClassifiedOnce() {
        func outcome(_ status: Int, _ headers: [String: String] = [:]) -> AttemptOutcome {
            AttemptOutcome(.success(UpstreamResponse(status: status, headers: headers)))
        }
        do { let ok = outcome(429) == .stop(retryAfterSeconds: nil); #expect(ok) }
        do { let ok = outcome(429, ["Retry-After": "3"]) == .stop(retryAfterSeconds: 3); #expect(ok) }
        do { let ok = outcome(503, ["Retry-After": "2"]) == .stop(retryAfterSeconds: 2); #expect(ok) }
        #expect(outcome(503) == .failure)
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        let dated = UpstreamResponse(status: 429, headers: ["Retry-After": "Wed, 21 Oct 2015 07:28:05 GMT"])
        #expect(AttemptOutcome(.success(dated), wallNow: now) == .stop(retryAfterSeconds: 5))
        #expect(outcome(429, ["Retry-After": "soon"]) == .stop(retryAfterSeconds: nil))
        #expect(outcome(500) == .failure)
        #expect(outcome(404) == .answered)
        #expect(outcome(200) == .answered)
        #expect(AttemptOutcome(.failure(UpstreamError(.timeout, provider: "p", detail: ""))) == .failure)
        #expect(AttemptOutcome(.failure(UpstreamError(.connectionRefused, provider: "p", detail: ""))) == .failure)
        #expect(AttemptOutcome(.failure(UpstreamError(.tooLarge, provider: "p", detail: ""))) == .answered)
        #expect(AttemptOutcome(.failure(UpstreamError(.cancelled, provider: "p", detail: ""))) == .cancelled)
    }
}
