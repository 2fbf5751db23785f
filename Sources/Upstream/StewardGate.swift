import Base
import Cache
import HTTPClient

/// The steward's say over each attempt of a provider's GET (`AttemptGate`).
///
/// Time left and the wait for a token are read on the steward's clock (the deadline's too:
/// the chain sets it on that clock), never the system's.
///
/// - A first attempt waits at most `upstream.maxQueueMs` (and never past its deadline) for a
///   budget token; a retry never waits. A refusal throws `ProviderSkipped`, which the chain
///   treats as a fall-through; for a retry the previous answer stands.
/// - Every admitted attempt reports its outcome, so cooldowns, breakers and budgets learn
///   from each one; a token waited for by a caller that went away is given back.
struct StewardGate: AttemptGate {
    let steward: Steward
    /// A background cache refresh: never queues, never spends a provider's last token. Also
    /// true for any attempt made inside a cache's background refresh task
    /// (`CacheRefresh.isBackground`), wherever the chain was built: history blocks are
    /// refreshed by loads a foreground request's chain started.
    let background: Bool

    func admit(_ request: UpstreamRequest, attempt: Int, deadline: UpstreamDeadline) async throws -> any AttemptPermit {
        let provider = request.provider
        let left = deadline.remainingSeconds
        let maxWait = attempt == 1 ? max(0, min(Double(steward.configuration.maxQueueMs) / 1000, left)) : 0
        let ask = AdmissionRequest(maxWaitSeconds: maxWait, background: background || CacheRefresh.isBackground,
                                   isRetry: attempt > 1)
        switch await steward.state.admit(provider, ask, now: steward.now()) {
        case .skipped(let reason, let seconds):
            if attempt == 1 { steward.countSkip(provider, reason) }
            throw ProviderSkipped(provider: provider, reason: reason, availableInSeconds: max(0, seconds))
        case .admitted(let ticket, let wait):
            let isRetry = attempt > 1
            if isRetry { steward.retryInFlight(provider, started: true) }
            if wait > 0 {
                do {
                    try await steward.clock.sleep(seconds: min(wait, 3600))
                } catch {
                    if isRetry { steward.retryInFlight(provider, started: false) }
                    await steward.state.abandon(provider, ticket, now: steward.now())
                    throw CancellationError()
                }
            }
            return StewardPermit(steward: steward, provider: provider, ticket: ticket, isRetry: isRetry)
        }
    }

    func mayRetry(_ request: UpstreamRequest, after result: Result<UpstreamResponse, UpstreamError>) async -> Bool {
        await steward.state.allowsRetry(request.provider, now: steward.now(),
                                        retriesInFlight: steward.retriesInFlight(request.provider))
    }
}

/// One admitted attempt: reports its outcome to the state and logs what changed.
struct StewardPermit: AttemptPermit {
    let steward: Steward
    let provider: String
    let ticket: AdmissionTicket
    /// Counted in the steward's retries in flight until it finishes.
    var isRetry = false

    func finish(_ result: Result<UpstreamResponse, UpstreamError>) async {
        if isRetry { steward.retryInFlight(provider, started: false) }
        let changes = await steward.state.record(provider, ticket, outcome: AttemptOutcome(result), now: steward.now())
        steward.report(provider, changes)
    }
}

/// The client a provider is handed while the chain asks it: every GET goes through the
/// steward's gate and ends by the provider's deadline.
struct StewardedClient: HTTPClient {
    let base: any HTTPClient
    let gate: StewardGate
    let deadline: UpstreamDeadline

    func get(_ request: UpstreamRequest) async throws -> UpstreamResponse {
        try await base.get(request, deadline: deadline, gate: gate)
    }

    func get(_ request: UpstreamRequest, deadline: UpstreamDeadline, gate: any AttemptGate) async throws -> UpstreamResponse {
        try await base.get(request, deadline: self.deadline.earlier(deadline), gate: gate)
    }
}
