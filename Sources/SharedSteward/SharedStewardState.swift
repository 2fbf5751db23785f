import Redis
import Synchronization
import Upstream

/// The steward's state shared by every replica through Redis: a 429 seen by one replica cools
/// the provider down for all, a breaker opened by failures anywhere is open everywhere, and a
/// provider's budget (`google-books` 1/s) is the cluster's, not each replica's.
///
/// - **Rules**: `StewardScript` applies `ProviderGuard`'s rules to one hash per provider
///   (`StewardKeyLayout`) in one atomic Lua call per operation, on Redis's clock (`TIME`): the
///   replicas' monotonic clocks have unrelated origins. Only durations (waits, seconds left)
///   cross between clocks.
/// - **Redis down or slow**: any call that fails (unreachable, reconnecting, or no reply within
///   the client's `timeoutMilliseconds`) is decided by `fallback`, this process's own
///   `LocalStewardState`, for that call only; the next call tries Redis again, so sharing
///   resumes as soon as the client has reconnected. A provider is never blocked nor
///   unprotected because Redis is gone.
/// - **Budget across the two**: every request Redis admits also takes a token from the local
///   bucket (`LocalStewardState.takeToken`; if the local bucket refuses, Redis's token and
///   probe are given back and the request is skipped), and the outcome of every request is
///   recorded locally too (without probes). So the local state always holds this replica's own
///   spending and the stops and failures it saw itself: with Redis up the cluster stays within
///   the budget; down, flapping or coming back, one replica never exceeds what one process
///   may send today, and keeps the cooldowns it saw.
/// - **Tickets** say where they were admitted (`AdmissionTicket.shared`): an outcome goes back
///   to the store that holds its probe slot.
/// - **State changes are reported once for the whole cluster**: the script changes a state
///   atomically, so exactly one call sees each transition (the 429 that starts a cooldown, the
///   failure that opens a breaker, the probe that ends it) and only the replica that made that
///   call logs it. One line per change in the cluster's aggregated logs is what an operator
///   reads; per-replica lines cannot be had anyway, as state moves only with requests and a
///   replica that sends none would never notice a change. While a replica falls back, its
///   local state's changes are its own and it logs them.
/// - **`statuses(now:)`** (`/metrics`, `/admin/upstreams`) is synchronous: served from
///   `SharedStatusMirror`, the state as this replica last saw it.
public final class SharedStewardState: StewardState {
    /// Which clock the script reads.
    public enum Clock: Sendable, Equatable {
        /// Redis's `TIME`: the only clock every replica shares (production).
        case redisTime
        /// The `now` each call is given, passed to the script: tests driving every state with
        /// one manual clock, to compare the script with `ProviderGuard` step by step.
        case callers
    }

    public let client: RedisClient
    public let fallback: LocalStewardState
    private let keys: StewardKeyLayout
    private let clock: Clock
    private let script = ScriptCache(source: StewardScript.source)
    private let mirror = SharedStatusMirror()
    private let fallbackDecisions = Atomic<UInt64>(0)

    /// - Parameters:
    ///   - client: the service's Redis client (its timeout bounds every call).
    ///   - keyPrefix: `cache.redis.keyPrefix`; keys are `keyPrefix + "steward:" + provider`.
    ///   - fallback: decides when Redis cannot, and keeps this replica's own spending; its
    ///     configuration (limits, budgets) is the one applied in Redis too.
    public init(client: RedisClient, keyPrefix: [UInt8], fallback: LocalStewardState, clock: Clock = .redisTime) {
        self.client = client
        self.fallback = fallback
        self.clock = clock
        keys = StewardKeyLayout(keyPrefix: keyPrefix)
    }

    /// Calls decided by the local fallback because Redis failed them.
    public var fallbackDecisionCount: UInt64 { fallbackDecisions.load(ordering: .relaxed) }

    public func admit(_ provider: String, _ request: AdmissionRequest, now: Double) async -> Admission {
        guard let admission = await shared(provider, .admit(request), now: now, { reply, bounds in reply.admission.map(bounds.admission) }) else {
            return await fallback.admit(provider, request, now: now)
        }
        guard case .admitted(let ticket, let sharedWait) = admission else { return admission }
        switch fallback.takeToken(provider, request, now: now) {
        case .admitted(_, let localWait):
            return .admitted(ticket, waitSeconds: max(sharedWait, localWait))
        case .skipped(let reason, let seconds):
            _ = await shared(provider, .abandon(ticket), now: now) { _, _ in () }
            return .skipped(reason, availableInSeconds: seconds)
        }
    }

    public func abandon(_ provider: String, _ ticket: AdmissionTicket, now: Double) async {
        guard ticket.shared else { return await fallback.abandon(provider, ticket, now: now) }
        await fallback.abandon(provider, AdmissionTicket(), now: now)
        // Redis down: its token refills and a probe slot goes stale by itself.
        _ = await shared(provider, .abandon(ticket), now: now) { _, _ in () }
    }

    public func record(_ provider: String, _ ticket: AdmissionTicket, outcome: AttemptOutcome, now: Double) async -> [StewardChange] {
        guard ticket.shared else { return await fallback.record(provider, ticket, outcome: outcome, now: now) }
        let localChanges = await fallback.record(provider, AdmissionTicket(), outcome: outcome, now: now)
        return await shared(provider, .record(ticket, outcome), now: now, { reply, bounds in reply.changes.map(bounds.changes) })
            ?? localChanges
    }

    public func allowsRetry(_ provider: String, now: Double, retriesInFlight: Int) async -> Bool {
        if let allowed = await shared(provider, .allowsRetry(retriesInFlight: retriesInFlight), now: now,
                                      { reply, _ in reply.allowsRetry }) {
            return allowed
        }
        return await fallback.allowsRetry(provider, now: now, retriesInFlight: retriesInFlight)
    }

    public func statuses(now: Double) -> [ProviderStatus] {
        mirror.statuses(now: now, local: fallback)
    }

    /// A provider's status as this replica would show it from the script's eight status fields
    /// (`/metrics`, `/admin/upstreams`), clamped to `configuration`'s caps; nil when the fields
    /// are not well formed. Pure: the fuzz target's entry to what is read from Redis.
    public static func status(fromScriptFields fields: [String?], provider: String,
                              configuration: StewardConfiguration) -> ProviderStatus? {
        guard let snapshot = SharedProviderSnapshot(fields) else { return nil }
        let budget = configuration.budget(for: provider)
        let bounds = StewardReplyBounds(limits: configuration.limits, budget: budget,
                                        maxQueueSeconds: Double(configuration.maxQueueMs) / 1_000)
        return bounds.snapshot(snapshot).status(provider: provider, budget: budget, elapsed: 0)
    }

    /// Runs the script for `operation` and decodes its result, clamped to the configured caps
    /// (`StewardReplyBounds`: Redis is not trusted, not even the script's reply); nil when Redis
    /// failed or answered something else than the script's reply (the caller then asks the
    /// fallback, and the mirror shows the local state for `provider` until a shared call
    /// succeeds again).
    private func shared<Result>(_ provider: String, _ operation: StewardScriptCall.Operation, now: Double,
                                _ decode: (StewardScriptReply, StewardReplyBounds) -> Result?) async -> Result? {
        let configuration = fallback.configuration
        let budget = configuration.budget(for: provider)
        let maxQueue = Double(configuration.maxQueueMs) / 1_000
        let bounds = StewardReplyBounds(limits: configuration.limits, budget: budget, maxQueueSeconds: maxQueue)
        let call = StewardScriptCall(operation: operation, pinnedNow: clock == .callers ? now : nil,
                                     limits: configuration.limits, budget: budget, maxQueueSeconds: maxQueue)
        do {
            let loaded = try await script.script(on: client)
            let reply = try await client.run(loaded, keys: [keys.key(for: provider)], arguments: call.arguments)
            if let decoded = StewardScriptReply(reply), let result = decode(decoded, bounds) {
                mirror.sawShared(provider, bounds.snapshot(decoded.snapshot), at: now)
                return result
            }
        } catch {}
        mirror.sawLocal(provider)
        fallbackDecisions.add(1, ordering: .relaxed)
        return nil
    }
}
