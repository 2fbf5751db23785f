/// A provider's request budget: `ratePerSecond` tokens a second, at most `burst` stored.
/// Pure and clock-driven (every call takes `now`, monotonic seconds), so it is tested without
/// sockets or sleeps.
///
/// Waiting is by reservation: a foreground request that finds no token takes one on credit
/// (the balance goes negative) and is told how long to wait, so waiters are served in arrival
/// order and the bucket never hands out more than its rate. A wait longer than allowed takes
/// nothing and reports when a token would be free. A background request (a cache refresh)
/// never waits and never spends the last token, so foreground misses always come first.
struct TokenBucket: Sendable, Equatable {
    /// Tokens per second; 0 means no budget (every request goes at once).
    let ratePerSecond: Double
    let burst: Double
    private(set) var tokens: Double
    private var updated: Double

    init(ratePerSecond: Double, burst: Int, now: Double) {
        self.ratePerSecond = max(0, ratePerSecond)
        self.burst = Double(max(1, burst))
        self.tokens = self.burst
        self.updated = now
    }

    var isUnlimited: Bool { ratePerSecond <= 0 }

    enum Grant: Sendable, Equatable {
        /// A token is taken; send after waiting this many seconds (0: at once).
        case granted(waitSeconds: Double)
        /// Nothing taken; a token would be free in this many seconds.
        case refused(availableInSeconds: Double)
    }

    /// Takes a token for a request arriving at `now` that may wait at most `maxWaitSeconds`.
    mutating func take(now: Double, maxWaitSeconds: Double, background: Bool) -> Grant {
        guard !isUnlimited else { return .granted(waitSeconds: 0) }
        refill(now: now)
        if background {
            // Never the last token, never a queue: a stale answer is being served meanwhile.
            guard tokens >= 2 else { return .refused(availableInSeconds: (2 - tokens) / ratePerSecond) }
            tokens -= 1
            return .granted(waitSeconds: 0)
        }
        let wait = tokens >= 1 ? 0 : (1 - tokens) / ratePerSecond
        guard wait <= max(0, maxWaitSeconds) else { return .refused(availableInSeconds: wait) }
        tokens -= 1
        return .granted(waitSeconds: wait)
    }

    /// Returns a token taken by a request that was never sent (its caller went away while
    /// waiting, or another guard skipped it after all).
    mutating func giveBack(now: Double) {
        guard !isUnlimited else { return }
        refill(now: now)
        tokens = min(burst, tokens + 1)
    }

    /// Seconds until a foreground request would get a token without waiting.
    func availableIn(now: Double) -> Double {
        guard !isUnlimited else { return 0 }
        let current = min(burst, tokens + max(0, now - updated) * ratePerSecond)
        return current >= 1 ? 0 : (1 - current) / ratePerSecond
    }

    /// Tokens now (negative while requests wait on credit).
    func tokens(now: Double) -> Double {
        isUnlimited ? burst : min(burst, tokens + max(0, now - updated) * ratePerSecond)
    }

    private mutating func refill(now: Double) {
        guard now > updated else { return }
        tokens = min(burst, tokens + (now - updated) * ratePerSecond)
        updated = now
    }
}
