import Testing
@testable import Upstream

@Suite struct CooldownTests {
    @Test func retryAfterIsHonouredThenOneProbeGoesFirst() {
        var cooldown = Cooldown(maxSeconds: 300)
        do { let ok = cooldown.stop(retryAfterSeconds: 1, now: 10); #expect(ok) }
        #expect(cooldown.check(now: 10.5, staleProbeSeconds: 8) == .skip(availableInSeconds: 0.5))
        #expect(cooldown.check(now: 11, staleProbeSeconds: 8) == .go(probe: true))
        cooldown.startProbe(now: 11)
        #expect(cooldown.check(now: 11.1, staleProbeSeconds: 8) == .skip(availableInSeconds: 1))
        do { let ok = cooldown.probeAnswered(); #expect(ok) }
        #expect(cooldown.check(now: 11.2, staleProbeSeconds: 8) == .go(probe: false))
    }

    @Test func answersToEarlierRequestsExtendButDoNotRestartOrLog() {
        var cooldown = Cooldown(maxSeconds: 300)
        do { let ok = cooldown.stop(retryAfterSeconds: 1, now: 0); #expect(ok) }
        do { let ok = !cooldown.stop(retryAfterSeconds: 1, now: 0.3); #expect(ok) }
        #expect(cooldown.remaining(now: 0.3) == 1)
        do { let ok = !cooldown.stop(retryAfterSeconds: nil, now: 0.4); #expect(ok) }
    }

    /// A Retry-After that is not a finite number is no Retry-After: it doubles, as none does.
    @Test func aRetryAfterThatIsNotFiniteCountsAsNone() {
        var cooldown = Cooldown(maxSeconds: 300)
        for (index, retryAfter) in [Double.infinity, .nan, nil].enumerated() {
            let now = Double(index) * 100
            #expect(cooldown.check(now: now, staleProbeSeconds: 8) == .go(probe: index > 0))
            if index > 0 { cooldown.startProbe(now: now) }
            _ = cooldown.stop(retryAfterSeconds: retryAfter, now: now)
            #expect(cooldown.remaining(now: now) == Cooldown.doubling(index), "stop \(index)")
        }
    }

    @Test func withoutRetryAfterOneSecondDoublingToTheCap() {
        var cooldown = Cooldown(maxSeconds: 5)
        var now = 0.0
        var lengths: [Double] = []
        for _ in 0..<5 {
            _ = cooldown.stop(retryAfterSeconds: nil, now: now)
            lengths.append(cooldown.remaining(now: now))
            now += cooldown.remaining(now: now)
            #expect(cooldown.check(now: now, staleProbeSeconds: 8) == .go(probe: true))
            cooldown.startProbe(now: now)
        }
        #expect(lengths == [1, 2, 4, 5, 5])
        do { let ok = cooldown.probeAnswered(); #expect(ok) }
        _ = cooldown.stop(retryAfterSeconds: nil, now: now)
        #expect(cooldown.remaining(now: now) == 1, "a success resets the doubling")
    }

    @Test func retryAfterIsCapped() {
        var cooldown = Cooldown(maxSeconds: 300)
        _ = cooldown.stop(retryAfterSeconds: 86_400, now: 0)
        #expect(cooldown.remaining(now: 0) == 300)
    }

    @Test func aLostProbeFreesTheSlotAndAStaleOneIsReplaced() {
        var cooldown = Cooldown(maxSeconds: 300)
        _ = cooldown.stop(retryAfterSeconds: 1, now: 0)
        cooldown.startProbe(now: 1)
        cooldown.probeLost(now: 1.5)
        #expect(cooldown.check(now: 1.5, staleProbeSeconds: 8) == .go(probe: true))
        cooldown.startProbe(now: 1.5)
        #expect(cooldown.check(now: 20, staleProbeSeconds: 8) == .go(probe: true))
    }
}
