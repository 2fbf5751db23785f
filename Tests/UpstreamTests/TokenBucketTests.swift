import Testing
@testable import Upstream

@Suite struct TokenBucketTests {
    @Test func aFullBurstGoesAtOnceThenTheRateHolds() {
        var bucket = TokenBucket(ratePerSecond: 5, burst: 20, now: 0)
        for _ in 0..<20 { #expect(bucket.take(now: 0, maxWaitSeconds: 0, background: false) == .granted(waitSeconds: 0)) }
        do { let ok = bucket.take(now: 0, maxWaitSeconds: 0, background: false) == .refused(availableInSeconds: 0.2); #expect(ok) }
        do { let ok = bucket.take(now: 0.2, maxWaitSeconds: 0, background: false) == .granted(waitSeconds: 0); #expect(ok) }
    }

    @Test func waitersQueueInArrivalOrderWithinTheAllowedWait() {
        var bucket = TokenBucket(ratePerSecond: 10, burst: 1, now: 0)
        do { let ok = bucket.take(now: 0, maxWaitSeconds: 0.25, background: false) == .granted(waitSeconds: 0); #expect(ok) }
        guard case .granted(let first) = bucket.take(now: 0, maxWaitSeconds: 0.25, background: false),
              case .granted(let second) = bucket.take(now: 0, maxWaitSeconds: 0.25, background: false) else {
            Issue.record("expected two queued grants")
            return
        }
        #expect(abs(first - 0.1) < 1e-9 && abs(second - 0.2) < 1e-9)
        // The third would wait 0.3 s > 0.25 s: refused, nothing taken.
        guard case .refused(let available) = bucket.take(now: 0, maxWaitSeconds: 0.25, background: false) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(abs(available - 0.3) < 1e-9)
        #expect(abs(bucket.tokens(now: 0) - -2) < 1e-9)
    }

    @Test func neverMoreThanTheRateOverTime() {
        var bucket = TokenBucket(ratePerSecond: 5, burst: 20, now: 0)
        var sent = 0
        var now = 0.0
        while now < 10 {
            if case .granted = bucket.take(now: now, maxWaitSeconds: 0, background: false) { sent += 1 }
            now += 0.001
        }
        #expect(sent <= 20 + 5 * 10 + 1)
        #expect(sent >= 20 + 5 * 10 - 1)
    }

    @Test func backgroundNeverSpendsTheLastTokenNorWaits() {
        var bucket = TokenBucket(ratePerSecond: 1, burst: 2, now: 0)
        do { let ok = bucket.take(now: 0, maxWaitSeconds: 1, background: true) == .granted(waitSeconds: 0); #expect(ok) }
        do { let ok = bucket.take(now: 0, maxWaitSeconds: 1, background: true) == .refused(availableInSeconds: 1); #expect(ok) }
        do { let ok = bucket.take(now: 0, maxWaitSeconds: 0, background: false) == .granted(waitSeconds: 0); #expect(ok) }
    }

    @Test func foregroundWaitersGoBeforeBackgroundRefreshes() {
        var bucket = TokenBucket(ratePerSecond: 1, burst: 3, now: 0)
        for _ in 0..<3 { _ = bucket.take(now: 0, maxWaitSeconds: 0, background: false) }
        do { let ok = bucket.take(now: 0, maxWaitSeconds: 2, background: false) == .granted(waitSeconds: 1); #expect(ok) }
        // At 1.5 s one token has come and gone to the waiter: a refresh still gets nothing.
        if case .granted = bucket.take(now: 1.5, maxWaitSeconds: 0, background: true) { Issue.record("refresh jumped the queue") }
    }

    @Test func aTokenGivenBackIsUsableAgain() {
        var bucket = TokenBucket(ratePerSecond: 1, burst: 1, now: 0)
        do { let ok = bucket.take(now: 0, maxWaitSeconds: 0, background: false) == .granted(waitSeconds: 0); #expect(ok) }
        bucket.giveBack(now: 0)
        do { let ok = bucket.take(now: 0, maxWaitSeconds: 0, background: false) == .granted(waitSeconds: 0); #expect(ok) }
    }

    @Test func zeroRateIsNoBudget() {
        var bucket = TokenBucket(ratePerSecond: 0, burst: 1, now: 0)
        for _ in 0..<1000 { #expect(bucket.take(now: 0, maxWaitSeconds: 0, background: true) == .granted(waitSeconds: 0)) }
        #expect(bucket.availableIn(now: 0) == 0)
    }
}
