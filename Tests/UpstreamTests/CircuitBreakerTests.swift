import Testing
@testable import Upstream

@Suite struct CircuitBreakerTests {
    @Test func consecutiveFailuresOpenItAndASuccessResetsTheCount() {
        var breaker = CircuitBreaker(threshold: 3)
        do { let ok = breaker.record(failed: true, probe: false, now: 0) == nil; #expect(ok) }
        do { let ok = breaker.record(failed: true, probe: false, now: 0) == nil; #expect(ok) }
        do { let ok = breaker.record(failed: false, probe: false, now: 0) == nil; #expect(ok) }
        do { let ok = breaker.record(failed: true, probe: false, now: 0) == nil; #expect(ok) }
        do { let ok = breaker.record(failed: true, probe: false, now: 0) == nil; #expect(ok) }
        do { let ok = breaker.record(failed: true, probe: false, now: 0) == .opened(seconds: 1); #expect(ok) }
        #expect(breaker.gaugeValue == 1)
        #expect(breaker.check(now: 0.5, staleProbeSeconds: 8) == .skip(availableInSeconds: 0.5))
    }

    @Test func oneProbeDecidesAndFailedProbesDoubleTheOpeningTo60s() {
        var breaker = CircuitBreaker(threshold: 1)
        _ = breaker.record(failed: true, probe: false, now: 0)
        var now = 0.0
        var openings: [Double] = []
        for _ in 0..<8 {
            now += breaker.remaining(now: now)
            #expect(breaker.check(now: now, staleProbeSeconds: 8) == .go(probe: true))
            breaker.startProbe(now: now)
            #expect(breaker.gaugeValue == 2)
            #expect(breaker.check(now: now, staleProbeSeconds: 8) == .skip(availableInSeconds: 1), "only one probe")
            do { let ok = breaker.record(failed: false, probe: false, now: now) == nil; #expect(ok, "an earlier request does not decide") }
            _ = breaker.record(failed: true, probe: true, now: now)
            openings.append(breaker.remaining(now: now))
        }
        #expect(openings == [2, 4, 8, 16, 32, 60, 60, 60])
        now += 60
        breaker.startProbe(now: now)
        do { let ok = breaker.record(failed: false, probe: true, now: now) == .closed; #expect(ok) }
        #expect(breaker.gaugeValue == 0)
        _ = breaker.record(failed: true, probe: false, now: now)
        #expect(breaker.remaining(now: now) == 1, "closing resets the doubling")
    }

    @Test func aLostProbeLetsTheNextRequestProbe() {
        var breaker = CircuitBreaker(threshold: 1)
        _ = breaker.record(failed: true, probe: false, now: 0)
        breaker.startProbe(now: 1)
        breaker.probeLost()
        #expect(breaker.check(now: 1, staleProbeSeconds: 8) == .go(probe: true))
    }
}
