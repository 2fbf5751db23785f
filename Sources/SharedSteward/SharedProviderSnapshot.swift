import Upstream

/// One provider's shared state as a `StewardScript` call left it, and its projection to a
/// later moment of this process's clock (for `statuses(now:)`, which must not wait for Redis).
///
/// Durations (cooldown and opening left) are relative, so they project across clocks: what
/// was left then, minus what has passed here since. Tokens refill at the budget's rate; the
/// retry window's buckets leave it as seconds pass. Nothing
/// else another replica did since is known: `/metrics` and `/admin/upstreams` show the state
/// as this replica last saw it.
struct SharedProviderSnapshot: Sendable, Equatable {
    enum Phase: Int, Sendable { case clear = 0, cooling = 1, probing = 2 }
    enum BreakerPhase: Int, Sendable { case closed = 0, open = 1, halfOpen = 2 }

    var cooldown: Phase
    var cooldownSeconds: Double
    var breaker: BreakerPhase
    var consecutiveFailures: Int
    var breakerOpenForSeconds: Double
    var tokens: Double
    /// How far into its second Redis's clock was (0 ≤ fraction < 1).
    var fraction: Double
    /// The retry window's one-second buckets: how many seconds before the snapshot's second,
    /// requests, retries.
    var window: [(age: Int, requests: Int, retries: Int)]

    static func == (lhs: SharedProviderSnapshot, rhs: SharedProviderSnapshot) -> Bool {
        lhs.cooldown == rhs.cooldown && lhs.cooldownSeconds == rhs.cooldownSeconds && lhs.breaker == rhs.breaker
            && lhs.consecutiveFailures == rhs.consecutiveFailures && lhs.breakerOpenForSeconds == rhs.breakerOpenForSeconds
            && lhs.tokens == rhs.tokens && lhs.fraction == rhs.fraction && lhs.window.elementsEqual(rhs.window) { $0 == $1 }
    }

    /// From the script's eight status fields (nil unless all are well formed).
    init?(_ fields: [String?]) {
        guard fields.count == 8,
              let cooldown = fields[0].flatMap(Int.init).flatMap(Phase.init(rawValue:)),
              let cooldownSeconds = StewardScriptReply.seconds(fields[1]),
              let breaker = fields[2].flatMap(Int.init).flatMap(BreakerPhase.init(rawValue:)),
              let failures = fields[3].flatMap(Int.init),
              let opened = StewardScriptReply.seconds(fields[4]),
              let tokenText = fields[5], let tokens = Double(tokenText), tokens.isFinite,
              let fraction = StewardScriptReply.seconds(fields[6]), let window = fields[7].flatMap(Self.window) else { return nil }
        self.cooldown = cooldown
        self.cooldownSeconds = cooldownSeconds
        self.breaker = breaker
        consecutiveFailures = max(0, failures)
        breakerOpenForSeconds = opened
        self.tokens = tokens
        self.fraction = min(fraction, 1)
        self.window = window
    }

    /// `age,requests,retries;…` (empty: no traffic in the window); nil when malformed.
    static func window(_ text: String) -> [(age: Int, requests: Int, retries: Int)]? {
        var entries: [(age: Int, requests: Int, retries: Int)] = []
        for entry in text.utf8.split(separator: UInt8(ascii: ";")) {
            let numbers = entry.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { Int(String(decoding: $0, as: UTF8.self)) }
            guard numbers.count == 3, let age = numbers[0], let requests = numbers[1], let retries = numbers[2],
                  requests >= 0, retries >= 0 else { return nil }
            entries.append((age, requests, retries))
        }
        return entries
    }

    /// The status `elapsed` seconds after the snapshot was taken.
    func status(provider: String, budget: ProviderBudget, elapsed: Double) -> ProviderStatus {
        let passed = elapsed.isFinite ? max(0, elapsed) : 0
        let burst = Double(max(1, budget.burst))
        let rate = max(0, budget.maxRequestsPerSecond)
        let gauge: Int
        switch cooldown {
        case .cooling: gauge = 1
        case .probing: gauge = 2
        case .clear: gauge = breaker.rawValue
        }
        // Buckets leave the window as Redis's clock would have crossed second boundaries.
        let shift = Int(min(1e9, (fraction + passed).rounded(.down)))
        let live = window.filter { $0.age &+ shift < StewardLimits.retryWindowSeconds }
        return ProviderStatus(
            provider: provider,
            state: Self.name(gauge),
            breaker: Self.name(breaker.rawValue),
            consecutiveFailures: consecutiveFailures,
            breakerOpenForSeconds: max(0, breakerOpenForSeconds - passed),
            coolingDown: cooldown != .clear,
            cooldownSeconds: max(0, cooldownSeconds - passed),
            maxRequestsPerSecond: rate,
            burst: Int(burst),
            tokens: rate > 0 ? min(burst, tokens + passed * rate) : burst,
            requestsLast10s: live.reduce(0) { $0 &+ $1.requests },
            retriesLast10s: live.reduce(0) { $0 &+ $1.retries },
            scope: "cluster")
    }

    /// The `almanac_upstream_state` names: 0 closed, 1 open, 2 half-open.
    static func name(_ gauge: Int) -> String { gauge == 0 ? "closed" : gauge == 1 ? "open" : "half-open" }
}
