import Synchronization

/// The steward's state in this process: one `ProviderGuard` per provider name behind a mutex.
public final class LocalStewardState: StewardState {
    public let configuration: StewardConfiguration
    private let guards = Mutex<[String: ProviderGuard]>([:])

    /// Providers in `configuration.budgets` are known from the start (so `/metrics` and the
    /// admin API list them before their first request); others on first use.
    public init(configuration: StewardConfiguration, now: Double) {
        self.configuration = configuration
        var initial: [String: ProviderGuard] = [:]
        for (name, budget) in configuration.budgets {
            initial[name] = ProviderGuard(limits: configuration.limits, budget: budget, now: now)
        }
        guards.withLock { $0 = initial }
    }

    private func withGuard<T>(_ provider: String, now: Double, _ body: (inout ProviderGuard) -> T) -> T {
        let configuration = self.configuration
        return guards.withLock { table in
            var entry = table[provider]
                ?? ProviderGuard(limits: configuration.limits, budget: configuration.budget(for: provider), now: now)
            let result = body(&entry)
            table[provider] = entry
            return result
        }
    }

    public func admit(_ provider: String, _ request: AdmissionRequest, now: Double) async -> Admission {
        withGuard(provider, now: now) { $0.admit(request, now: now) }
    }

    public func abandon(_ provider: String, _ ticket: AdmissionTicket, now: Double) async {
        withGuard(provider, now: now) { $0.abandon(ticket, now: now) }
    }

    public func record(_ provider: String, _ ticket: AdmissionTicket, outcome: AttemptOutcome, now: Double) async -> [StewardChange] {
        withGuard(provider, now: now) { $0.record(outcome, ticket: ticket, now: now) }
    }

    public func allowsRetry(_ provider: String, now: Double, retriesInFlight: Int) async -> Bool {
        withGuard(provider, now: now) { $0.allowsRetry(now: now, retriesInFlight: retriesInFlight) }
    }

    /// The budget alone: takes a token for `request` (waiting as `admit` would) and counts the
    /// request in the retry window, without looking at the cooldown or the breaker and without
    /// taking a probe slot. A shared state asks it for every request the shared store admits,
    /// so this bucket keeps this process's own spending whichever store decides: a process
    /// falling back to it after the shared store failed (or coming back from it) never sends
    /// more than its budget allows one process. Give the token back with `abandon` and an
    /// empty ticket.
    public func takeToken(_ provider: String, _ request: AdmissionRequest, now: Double) -> Admission {
        withGuard(provider, now: now) { $0.takeToken(request, now: now) }
    }

    public func statuses(now: Double) -> [ProviderStatus] {
        guards.withLock { table in
            table.keys.sorted().compactMap { name in table[name]?.status(provider: name, now: now) }
        }
    }
}
