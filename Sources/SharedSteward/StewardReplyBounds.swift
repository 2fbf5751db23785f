import Upstream

/// What a `StewardScript` reply may say, whatever the provider's hash in Redis held: the
/// script clamps the state it reads, and the reply is clamped again here where it is read,
/// so that a script of another version, or a hash the script's clamps missed, still cannot
/// block a provider past the caps nor hide it. Pure.
///
/// - a cooldown lasts at most `upstream.maxCooldownSeconds`, a breaker opening at most
///   `CircuitBreaker.maxOpenSeconds` (60 s);
/// - tokens lie within 0…burst, less what queued requests reserved: a foreground request that
///   queues takes its token on credit (`TokenBucket`), for at most `upstream.maxQueueMs`, so
///   no other debt can exist; a budget wait is then at most that debt plus two tokens' refill
///   (a background request waits for two);
/// - consecutive failures are at most the breaker's threshold.
struct StewardReplyBounds: Sendable, Equatable {
    var maxCooldownSeconds: Double
    var maxOpenSeconds: Double
    var breakerFailures: Int
    var burst: Double
    /// The fewest tokens a bucket can hold (a debt of queued requests); 0 without a budget.
    var minTokens: Double
    /// Seconds a budget wait may last; 0 without a budget.
    var maxBudgetWaitSeconds: Double

    /// - Parameter maxQueueSeconds: `upstream.maxQueueMs` in seconds.
    init(limits: StewardLimits, budget: ProviderBudget, maxQueueSeconds: Double) {
        maxCooldownSeconds = max(0, limits.maxCooldownSeconds)
        maxOpenSeconds = StewardLimits.breakerOpenSeconds.max
        breakerFailures = max(1, limits.breakerFailures)
        burst = Double(max(1, budget.burst))
        let rate = max(0, budget.maxRequestsPerSecond)
        let queue = maxQueueSeconds.isFinite ? max(0, maxQueueSeconds) : 0
        minTokens = -(queue * rate)
        maxBudgetWaitSeconds = rate > 0 ? queue + 2 / rate : 0
    }

    func admission(_ admission: Admission) -> Admission {
        switch admission {
        case .admitted(let ticket, let wait):
            return .admitted(ticket, waitSeconds: min(wait, maxBudgetWaitSeconds))
        case .skipped(let reason, let seconds):
            let cap: Double
            switch reason {
            case .cooldown: cap = maxCooldownSeconds
            case .breaker: cap = maxOpenSeconds
            case .budget: cap = maxBudgetWaitSeconds
            }
            return .skipped(reason, availableInSeconds: min(seconds, cap))
        }
    }

    func changes(_ changes: [StewardChange]) -> [StewardChange] {
        changes.map { change in
            switch change {
            case .cooldownStarted(let seconds): .cooldownStarted(seconds: min(seconds, maxCooldownSeconds))
            case .breakerOpened(let seconds, let failures):
                .breakerOpened(seconds: min(seconds, maxOpenSeconds), failures: min(max(0, failures), breakerFailures))
            case .cooldownEnded, .breakerClosed: change
            }
        }
    }

    func snapshot(_ snapshot: SharedProviderSnapshot) -> SharedProviderSnapshot {
        var bounded = snapshot
        bounded.cooldownSeconds = min(snapshot.cooldownSeconds, maxCooldownSeconds)
        bounded.breakerOpenForSeconds = min(snapshot.breakerOpenForSeconds, maxOpenSeconds)
        bounded.consecutiveFailures = min(snapshot.consecutiveFailures, breakerFailures)
        bounded.tokens = min(max(minTokens, snapshot.tokens), burst)
        return bounded
    }
}
