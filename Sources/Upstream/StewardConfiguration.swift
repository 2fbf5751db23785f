/// A provider's request budget (`<area>.<provider>.maxRequestsPerSecond` / `.burst`).
public struct ProviderBudget: Sendable, Equatable {
    public static let defaultBurst = 20
    /// Token refill rate; 0 = no budget.
    public var maxRequestsPerSecond: Double
    /// Bucket size: how many requests may go at once after a quiet spell (a full batch).
    public var burst: Int

    public init(maxRequestsPerSecond: Double, burst: Int = ProviderBudget.defaultBurst) {
        self.maxRequestsPerSecond = maxRequestsPerSecond
        self.burst = burst
    }

    public static let unlimited = ProviderBudget(maxRequestsPerSecond: 0)
}

/// The limits every provider's state machines share (`upstream.*`).
public struct StewardLimits: Sendable, Equatable {
    /// `upstream.maxCooldownSeconds`: cap of a cooldown, whatever Retry-After says.
    public var maxCooldownSeconds: Double = 300
    /// `upstream.breakerFailures`: consecutive failures that open a breaker.
    public var breakerFailures: Int = 5
    /// `upstream.retryBudgetPercent`: retries as a share of requests over 10 s.
    public var retryBudgetPercent: Int = 10
    /// A probe that has not reported after this long is presumed lost (the request deadline).
    public var staleProbeSeconds: Double = 8
    public init() {}

    /// The breaker's first opening (1 s) and its cap after doubling (60 s): fixed rules a
    /// shared store applies too, published here so they are written once.
    public static var breakerOpenSeconds: (first: Double, max: Double) {
        (CircuitBreaker.firstOpenSeconds, CircuitBreaker.maxOpenSeconds)
    }

    /// The retry budget's window (10 s).
    public static var retryWindowSeconds: Int { RetryBudget.windowSeconds }
    /// Retries of one provider in flight below which the retry budget never refuses one.
    public static var minRetriesInFlight: Int { RetryBudget.minRetriesInFlight }
}

/// Everything the steward is configured with.
public struct StewardConfiguration: Sendable, Equatable {
    public var limits = StewardLimits()
    /// `upstream.maxQueueMs`: longest wait for a budget token before the provider is skipped.
    public var maxQueueMs: Int = 250
    /// `upstream.timeoutMs`: one provider's attempts, retries included.
    public var providerTimeoutMs: Int = 5000
    /// `upstream.requestDeadlineMs`: a client request's whole wait across the chain.
    public var requestDeadlineMs: Int = 8000
    /// Budgets by provider name (`google-books`); a provider not listed has none.
    public var budgets: [String: ProviderBudget] = [:]
    public init() {}

    public func budget(for provider: String) -> ProviderBudget { budgets[provider] ?? .unlimited }
}
