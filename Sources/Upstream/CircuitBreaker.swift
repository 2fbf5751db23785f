/// Stops asking a provider that keeps failing. Pure and clock-driven.
///
/// - **Closed**: requests go; `threshold` consecutive failures (transport errors, timeouts,
///   5xx) open it. Any other answer resets the count.
/// - **Open**: requests are skipped for 1 s, doubling with each failed probe up to 60 s.
/// - **Half-open**: when the time is up, one request (the probe) goes and the rest keep
///   skipping; its success closes the breaker (and resets the doubling), its failure opens it
///   again. Answers to requests sent before the breaker opened do not change it: the probe
///   decides. A probe that never reports frees the slot for the next request.
struct CircuitBreaker: Sendable, Equatable {
    enum State: Sendable, Equatable {
        case closed(failures: Int)
        case open(until: Double)
        case halfOpen(probeSince: Double?)
    }

    static let firstOpenSeconds = 1.0
    static let maxOpenSeconds = 60.0

    let threshold: Int
    private(set) var state: State = .closed(failures: 0)
    /// How long the last opening lasted (doubles after each failed probe).
    private var openSeconds = 0.0

    init(threshold: Int) { self.threshold = max(1, threshold) }

    enum Check: Sendable, Equatable {
        case go(probe: Bool)
        case skip(availableInSeconds: Double)
    }

    enum Change: Sendable, Equatable {
        case opened(seconds: Double)
        case closed
    }

    /// Whether a request may go at `now`; does not change the state (see `startProbe`).
    func check(now: Double, staleProbeSeconds: Double) -> Check {
        switch state {
        case .closed: return .go(probe: false)
        case .open(let until): return now >= until ? .go(probe: true) : .skip(availableInSeconds: until - now)
        case .halfOpen(let since):
            guard let since, now - since <= staleProbeSeconds else { return .go(probe: true) }
            return .skip(availableInSeconds: Self.firstOpenSeconds)
        }
    }

    mutating func startProbe(now: Double) { state = .halfOpen(probeSince: now) }

    /// Records an answer (`failed`: transport error, timeout or 5xx) of a request that was the
    /// probe or not. Returns the change worth a log line, if any.
    mutating func record(failed: Bool, probe: Bool, now: Double) -> Change? {
        switch state {
        case .closed(let failures):
            guard failed else {
                state = .closed(failures: 0)
                return nil
            }
            guard failures + 1 >= threshold else {
                state = .closed(failures: failures + 1)
                return nil
            }
            openSeconds = Self.firstOpenSeconds
            state = .open(until: now + openSeconds)
            return .opened(seconds: openSeconds)
        case .open:
            return nil
        case .halfOpen:
            guard probe else { return nil }
            if failed {
                openSeconds = min(Self.maxOpenSeconds, max(Self.firstOpenSeconds, openSeconds * 2))
                state = .open(until: now + openSeconds)
                return nil
            }
            openSeconds = 0
            state = .closed(failures: 0)
            return .closed
        }
    }

    /// The probe never reported (cancelled, or it met a cooldown instead): let another go.
    mutating func probeLost() {
        if case .halfOpen = state { state = .halfOpen(probeSince: nil) }
    }

    /// 0 closed, 1 open, 2 half-open (the `almanac_upstream_state` values).
    var gaugeValue: Int {
        switch state {
        case .closed: 0
        case .open: 1
        case .halfOpen: 2
        }
    }

    /// Seconds until the breaker lets a probe through (0 unless open).
    func remaining(now: Double) -> Double {
        if case .open(let until) = state { return max(0, until - now) }
        return 0
    }

    var consecutiveFailures: Int {
        if case .closed(let failures) = state { return failures }
        return 0
    }
}
