/// "Stop for a while", as a provider says it: a 429, or a 503 with `Retry-After`. Pure and
/// clock-driven.
///
/// - The provider is skipped until `Retry-After` has passed (capped by `maxSeconds`); a 429
///   without `Retry-After` means 1 s, doubling with each cooldown in a row, up to the cap.
/// - When the time is up, one request goes first (the probe); the others keep skipping until
///   it is answered. Without that, every request that queued up behind the cooldown would
///   reach the provider at the same instant and earn the next 429 together.
/// - The probe's answer decides: another stop starts another cooldown; anything else ends it.
///   A probe that never reports (its caller went away) frees the slot for the next request.
struct Cooldown: Sendable, Equatable {
    enum State: Sendable, Equatable {
        case clear
        case cooling(until: Double)
        /// The cooldown is over and one request is finding out whether the provider agrees.
        case probing(since: Double)
    }

    let maxSeconds: Double
    private(set) var state: State = .clear
    /// Cooldowns without `Retry-After` in a row (the doubling exponent).
    private var streak = 0

    init(maxSeconds: Double) { self.maxSeconds = max(0, maxSeconds) }

    var isActive: Bool { state != .clear }

    enum Check: Sendable, Equatable {
        case go(probe: Bool)
        case skip(availableInSeconds: Double)
    }

    /// Whether a request may go at `now`; does not change the state (see `startProbe`).
    /// A probe older than `staleProbeSeconds` is presumed lost.
    func check(now: Double, staleProbeSeconds: Double) -> Check {
        switch state {
        case .clear: return .go(probe: false)
        case .cooling(let until): return now >= until ? .go(probe: true) : .skip(availableInSeconds: until - now)
        case .probing(let since):
            return now - since > staleProbeSeconds ? .go(probe: true) : .skip(availableInSeconds: 1)
        }
    }

    mutating func startProbe(now: Double) { state = .probing(since: now) }

    /// The provider said stop. Returns true when this starts a cooldown (not while one runs).
    mutating func stop(retryAfterSeconds: Double?, now: Double) -> Bool {
        // A Retry-After that is not a finite number is no Retry-After at all.
        let retryAfterSeconds = retryAfterSeconds.flatMap { $0.isFinite ? $0 : nil }
        // Answers to requests sent before the cooldown began extend it with the same length;
        // only a new cooldown (after a probe) doubles.
        let cooling: Bool
        if case .cooling = state { cooling = true } else { cooling = false }
        let seconds: Double
        if let retryAfterSeconds {
            seconds = min(max(0, retryAfterSeconds), maxSeconds)
        } else {
            seconds = min(Self.doubling(cooling ? max(0, streak - 1) : streak), maxSeconds)
        }
        switch state {
        case .cooling(let until):
            state = .cooling(until: max(until, now + seconds))
            return false
        case .clear, .probing:
            let entering = state == .clear
            streak = retryAfterSeconds == nil ? streak + 1 : 0
            state = .cooling(until: now + seconds)
            return entering
        }
    }

    /// The probe was answered with something other than a stop. Returns true when this ends
    /// a cooldown.
    mutating func probeAnswered() -> Bool {
        guard case .probing = state else { return false }
        state = .clear
        streak = 0
        return true
    }

    /// The probe was never answered (cancelled): the next request probes instead.
    mutating func probeLost(now: Double) {
        guard case .probing = state else { return }
        state = .cooling(until: now)
    }

    /// Seconds of cooldown left (0 when clear or probing).
    func remaining(now: Double) -> Double {
        if case .cooling(let until) = state { return max(0, until - now) }
        return 0
    }

    /// 2^exponent seconds (1, 2, 4, …), bounded so it cannot overflow.
    static func doubling(_ exponent: Int) -> Double {
        var seconds = 1.0
        for _ in 0..<min(max(0, exponent), 30) { seconds *= 2 }
        return seconds
    }
}
