/// Everything the steward knows about one provider, composed from the four pure machines:
/// its cooldown, its breaker, its token bucket and its retry budget. Pure and clock-driven:
/// the unit of state a shared (cluster) store would keep per provider.
struct ProviderGuard: Sendable, Equatable {
    var cooldown: Cooldown
    var breaker: CircuitBreaker
    var bucket: TokenBucket
    var retries: RetryBudget
    /// A probe not reported within this many seconds is presumed lost.
    let staleProbeSeconds: Double

    init(limits: StewardLimits, budget: ProviderBudget, now: Double) {
        cooldown = Cooldown(maxSeconds: limits.maxCooldownSeconds)
        breaker = CircuitBreaker(threshold: limits.breakerFailures)
        bucket = TokenBucket(ratePerSecond: budget.maxRequestsPerSecond, burst: budget.burst, now: now)
        retries = RetryBudget(percent: limits.retryBudgetPercent)
        staleProbeSeconds = max(1, limits.staleProbeSeconds)
    }

    /// Admits a request at `now`, or says why not. Checks the cooldown, then the breaker, and
    /// only then spends a token, so a skipped request costs no budget.
    mutating func admit(_ ask: AdmissionRequest, now: Double) -> Admission {
        let cooling = cooldown.check(now: now, staleProbeSeconds: staleProbeSeconds)
        if case .skip(let seconds) = cooling { return .skipped(.cooldown, availableInSeconds: seconds) }
        let breaking = breaker.check(now: now, staleProbeSeconds: staleProbeSeconds)
        if case .skip(let seconds) = breaking { return .skipped(.breaker, availableInSeconds: seconds) }
        let budget = takeToken(ask, now: now)
        guard case .admitted(_, let wait) = budget else { return budget }
        let ticket = AdmissionTicket(cooldownProbe: cooling == .go(probe: true), breakerProbe: breaking == .go(probe: true))
        if ticket.cooldownProbe { cooldown.startProbe(now: now) }
        if ticket.breakerProbe { breaker.startProbe(now: now) }
        return .admitted(ticket, waitSeconds: wait)
    }

    /// The bucket and the retry window alone (`LocalStewardState.takeToken`): no cooldown,
    /// no breaker, no probe slot.
    mutating func takeToken(_ ask: AdmissionRequest, now: Double) -> Admission {
        switch bucket.take(now: now, maxWaitSeconds: ask.maxWaitSeconds, background: ask.background) {
        case .refused(let seconds):
            return .skipped(.budget, availableInSeconds: seconds)
        case .granted(let wait):
            retries.recordRequest(now: now, isRetry: ask.isRetry)
            return .admitted(AdmissionTicket(), waitSeconds: wait)
        }
    }

    /// An admitted request that was never sent: its token and probe slots are freed.
    mutating func abandon(_ ticket: AdmissionTicket, now: Double) {
        bucket.giveBack(now: now)
        if ticket.cooldownProbe { cooldown.probeLost(now: now) }
        if ticket.breakerProbe { breaker.probeLost() }
    }

    /// How an admitted request ended; returns the state changes worth a log line.
    mutating func record(_ outcome: AttemptOutcome, ticket: AdmissionTicket, now: Double) -> [StewardChange] {
        switch outcome {
        case .cancelled:
            if ticket.cooldownProbe { cooldown.probeLost(now: now) }
            if ticket.breakerProbe { breaker.probeLost() }
            return []
        case .stop(let retryAfter):
            if ticket.breakerProbe { breaker.probeLost() }
            let started = cooldown.stop(retryAfterSeconds: retryAfter, now: now)
            return started ? [.cooldownStarted(seconds: cooldown.remaining(now: now))] : []
        case .failure, .answered:
            var changes: [StewardChange] = []
            if ticket.cooldownProbe, cooldown.probeAnswered() { changes.append(.cooldownEnded) }
            switch breaker.record(failed: outcome == .failure, probe: ticket.breakerProbe, now: now) {
            case .opened(let seconds)?: changes.append(.breakerOpened(seconds: seconds, failures: breaker.threshold))
            case .closed?: changes.append(.breakerClosed)
            case nil: break
            }
            return changes
        }
    }

    func allowsRetry(now: Double, retriesInFlight: Int) -> Bool {
        !cooldown.isActive && retries.allowsRetry(now: now, retriesInFlight: retriesInFlight)
    }

    /// 0 closed, 1 open (skipped: breaker open or cooling down), 2 half-open (a probe decides).
    func gaugeValue(now: Double) -> Int {
        switch cooldown.state {
        case .cooling: return 1
        case .probing: return 2
        case .clear: return breaker.gaugeValue
        }
    }

    func status(provider: String, now: Double) -> ProviderStatus {
        let gauge = gaugeValue(now: now)
        let window = retries.counts(now: now)
        return ProviderStatus(
            provider: provider,
            state: gauge == 0 ? "closed" : gauge == 1 ? "open" : "half-open",
            breaker: breakerName,
            consecutiveFailures: breaker.consecutiveFailures,
            breakerOpenForSeconds: breaker.remaining(now: now),
            coolingDown: cooldown.isActive,
            cooldownSeconds: cooldown.remaining(now: now),
            maxRequestsPerSecond: bucket.ratePerSecond,
            burst: Int(bucket.burst),
            tokens: bucket.tokens(now: now),
            requestsLast10s: window.requests,
            retriesLast10s: window.retries)
    }

    private var breakerName: String {
        switch breaker.state {
        case .closed: "closed"
        case .open: "open"
        case .halfOpen: "half-open"
        }
    }
}
