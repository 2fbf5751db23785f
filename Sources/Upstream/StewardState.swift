/// Where the steward keeps each provider's cooldown, breaker, budget and retry budget.
///
/// `LocalStewardState` keeps them in this process. The protocol is asynchronous and speaks in
/// plain values (provider names, tickets, outcomes, monotonic seconds) so that a shared store
/// (a Redis-backed one for a cluster, applying the same `ProviderGuard` rules in a script) can
/// replace it without the steward, the chain or any provider changing.
public protocol StewardState: Sendable {
    /// Admits a request to `provider` at `now`, or says why not (taking a token, a probe slot).
    func admit(_ provider: String, _ request: AdmissionRequest, now: Double) async -> Admission
    /// An admitted request was never sent: give its token and probe slots back.
    func abandon(_ provider: String, _ ticket: AdmissionTicket, now: Double) async
    /// How an admitted request ended; returns the state changes (for the log, once each).
    func record(_ provider: String, _ ticket: AdmissionTicket, outcome: AttemptOutcome, now: Double) async -> [StewardChange]
    /// Whether `provider` may be sent a retry now (not cooling down, within its retry budget).
    /// `retriesInFlight`: this process's retries of `provider` sent and not yet answered.
    func allowsRetry(_ provider: String, now: Double, retriesInFlight: Int) async -> Bool
    /// Every known provider's state as this process sees it (for `/metrics` and the admin API).
    func statuses(now: Double) -> [ProviderStatus]
}

/// What a request asks of the steward. Only the steward's gate makes one (its memberwise
/// initialiser is internal); a `StewardState` only reads it.
public struct AdmissionRequest: Sendable, Equatable {
    /// Longest wait for a budget token.
    public var maxWaitSeconds: Double
    /// A background refresh: never waits, never spends the last token.
    public var background = false
    /// A retry rather than a first attempt.
    public var isRetry = false
}

/// Which probe slots an admitted request holds; handed back with its outcome.
public struct AdmissionTicket: Sendable, Equatable {
    public var cooldownProbe: Bool
    public var breakerProbe: Bool
    /// Admitted by a shared (cluster) store, which holds the probe slots; false when this
    /// process's own state admitted it (always, for `LocalStewardState`). A state that can
    /// fall back from the shared store to a local one hands the outcome back where the
    /// admission was decided, so a probe slot is never freed in the wrong place.
    public var shared: Bool
    public init(cooldownProbe: Bool = false, breakerProbe: Bool = false, shared: Bool = false) {
        self.cooldownProbe = cooldownProbe
        self.breakerProbe = breakerProbe
        self.shared = shared
    }
}

public enum Admission: Sendable, Equatable {
    /// Send after waiting `waitSeconds` for the token (0: at once).
    case admitted(AdmissionTicket, waitSeconds: Double)
    case skipped(ProviderSkipped.Reason, availableInSeconds: Double)
}

/// A provider state change worth one log line.
public enum StewardChange: Sendable, Equatable {
    case cooldownStarted(seconds: Double)
    case cooldownEnded
    case breakerOpened(seconds: Double, failures: Int)
    case breakerClosed
}

/// One provider's state, for `/metrics` and `GET /admin/upstreams`.
public struct ProviderStatus: Sendable, Equatable {
    public var provider: String
    /// `closed`, `open` (skipped: breaker open or cooling down), `half-open` (a probe decides).
    public var state: String
    /// The breaker alone: `closed`, `open`, `half-open`.
    public var breaker: String
    public var consecutiveFailures: Int
    public var breakerOpenForSeconds: Double
    public var coolingDown: Bool
    public var cooldownSeconds: Double
    public var maxRequestsPerSecond: Double
    public var burst: Int
    /// Tokens in the bucket now (negative while requests wait for one).
    public var tokens: Double
    public var requestsLast10s: Int
    public var retriesLast10s: Int
    /// Whose state this is: `replica` (this process's own: no Redis, or its last call for the
    /// provider fell back to it) or `cluster` (the state shared through Redis, as this replica
    /// last saw it).
    public var scope: String

    public init(provider: String, state: String, breaker: String, consecutiveFailures: Int,
                breakerOpenForSeconds: Double, coolingDown: Bool, cooldownSeconds: Double,
                maxRequestsPerSecond: Double, burst: Int, tokens: Double, requestsLast10s: Int, retriesLast10s: Int,
                scope: String = "replica") {
        self.provider = provider
        self.state = state
        self.breaker = breaker
        self.consecutiveFailures = consecutiveFailures
        self.breakerOpenForSeconds = breakerOpenForSeconds
        self.coolingDown = coolingDown
        self.cooldownSeconds = cooldownSeconds
        self.maxRequestsPerSecond = maxRequestsPerSecond
        self.burst = burst
        self.tokens = tokens
        self.requestsLast10s = requestsLast10s
        self.retriesLast10s = retriesLast10s
        self.scope = scope
    }

    /// `almanac_upstream_state`: 0 closed, 1 open, 2 half-open.
    public var gaugeValue: Int { state == "closed" ? 0 : state == "open" ? 1 : 2 }
}
