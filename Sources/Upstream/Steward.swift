import Base
import HTTPClient
import Synchronization

/// Protects providers from almanac: per-provider budgets, cooldowns when a provider says stop,
/// circuit breakers, a retry budget (see `ProviderGuard`). It sits between `ProviderChain` and
/// the HTTP client, admitting every attempt (`StewardGate`), so every provider gets it without
/// knowing.
///
/// The state lives behind `StewardState` (in this process: `LocalStewardState`); what stays
/// here is per process by nature: the clock, the skip counters, the log of state changes.
public final class Steward: Sendable {
    public let configuration: StewardConfiguration
    let state: any StewardState
    /// The one clock of everything the steward decides and waits on: its state's `now`, the
    /// provider chain's deadlines (`UpstreamDeadline`), the gate's waits for a token.
    public let clock: any MonotonicClock
    private let onChange: @Sendable (_ provider: String, _ change: StewardChange) -> Void
    private let onFailure: @Sendable (UpstreamError) -> Void
    private let skips = Mutex<[String: [ProviderSkipped.Reason: UInt64]]>([:])
    /// Retries sent by this process and not yet answered, by provider: the retry budget's floor
    /// (`StewardLimits.minRetriesInFlight`) counts them. Per process, like Envoy's per-instance
    /// count: an in-flight count kept in Redis would leak whenever a replica died mid-retry.
    private let retriesInFlight = Mutex<[String: Int]>([:])

    /// - Parameters:
    ///   - state: where provider state lives; default `LocalStewardState`.
    ///   - clock: the steward's time (tests inject a `ManualClock`); default `SystemClock`.
    ///   - onChange: called once per provider state change (entering or leaving a cooldown,
    ///     a breaker opening or closing): the app logs it.
    ///   - onFailure: called once per failed provider request, on the task that made it (see
    ///     `reportFailure`): the app logs it.
    public init(configuration: StewardConfiguration, state: (any StewardState)? = nil,
                clock: any MonotonicClock = SystemClock(),
                onChange: @escaping @Sendable (_ provider: String, _ change: StewardChange) -> Void = { _, _ in },
                onFailure: @escaping @Sendable (UpstreamError) -> Void = { _ in }) {
        self.configuration = configuration
        self.clock = clock
        self.state = state ?? LocalStewardState(configuration: configuration, now: clock.now())
        self.onChange = onChange
        self.onFailure = onFailure
    }

    func now() -> Double { clock.now() }

    /// A retry of `provider` was admitted (`started`) or has ended, answered or not.
    func retryInFlight(_ provider: String, started: Bool) {
        retriesInFlight.withLock { counts in
            let next = max(0, (counts[provider] ?? 0) + (started ? 1 : -1))
            counts[provider] = next == 0 ? nil : next
        }
    }

    /// This process's retries of `provider` in flight now.
    func retriesInFlight(_ provider: String) -> Int {
        retriesInFlight.withLock { $0[provider] ?? 0 }
    }

    /// Every known provider's state, providers sorted by name.
    public func statuses() -> [ProviderStatus] { state.statuses(now: clock.now()) }

    /// Requests not sent, by provider and reason (`almanac_upstream_skipped_total`).
    public func skippedCounts() -> [String: [ProviderSkipped.Reason: UInt64]] { skips.withLock { $0 } }

    func countSkip(_ provider: String, _ reason: ProviderSkipped.Reason) {
        skips.withLock { $0[provider, default: [:]][reason, default: 0] += 1 }
    }

    func report(_ provider: String, _ changes: [StewardChange]) {
        for change in changes { onChange(provider, change) }
    }

    /// One provider request failed (after its retries): an answer that was not a success, a
    /// transport error, a timeout, a body that could not be read, a deadline spent before it was
    /// asked. Reported where it happens, whatever comes next: a later provider may still answer,
    /// or nobody may be waiting (a background refresh), and the operator must see the failure
    /// either way. A request cancelled because its caller left is not a failure.
    public func reportFailure(_ failure: UpstreamError) {
        guard failure.kind != .cancelled else { return }
        onFailure(failure)
    }
}
