import Upstream

/// What a `StewardScript` reply may say, whatever the provider's hash in Redis held: the
/// script clamps the state it reads, and the reply is clamped again here where it is read,
/// so that a script of another version, or a hash the script's clamps missed, still cannot
/// block a provider past the caps nor hide it. Pure.
///
/// - a cooldown lasts at most `upstream.maxCooldownSeconds`, a breaker opening at most
///   `CircuitBreaker.maxOpenSeconds` (60 s);
/// - a budget wait is at most the time two tokens take to refill (a background request
///   waits for two), tokens lie within 0…burst;
/// - consecutive failures are at most the breaker's threshold.
struct StewardReplyBounds: Sendable, Equatable {
    var maxCooldownSeconds: Double
    var maxOpenSeconds: Double
    var breakerFailures: Int
    var burst: Double
    /// Seconds a budget wait may last; 0 without a budget.
    var maxBudgetWaitSeconds: Double

    init(limits: StewardLimits, budget: ProviderBudget) {
        maxCooldownSeconds = max(0, limits.maxCooldownSeconds)
        maxOpenSeconds = StewardLimits.breakerOpenSeconds.max
        breakerFailures = max(1, limits.breakerFailures)
        burst = Double(max(1, budget.burst))
        maxBudgetWaitSeconds = budget.maxRequestsPerSecond > 0 ? 2 / budget.maxRequestsPerSecond : 0
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
        bounded.tokens = min(max(0, snapshot.tokens), burst)
        return bounded
    }
}
