import Synchronization
import Upstream

/// What this replica last learnt of each provider, for `StewardState.statuses(now:)`, which is
/// synchronous and must never wait for Redis: every shared call leaves the provider's state as
/// the script saw it (`SharedProviderSnapshot`, projected to the moment asked); a provider
/// whose last call fell back to the local state shows the local state.
final class SharedStatusMirror: Sendable {
    private enum Entry {
        /// The shared state as of `at` (this process's clock).
        case shared(SharedProviderSnapshot, at: Double)
        case local
    }

    private let entries = Mutex<[String: Entry]>([:])

    func sawShared(_ provider: String, _ snapshot: SharedProviderSnapshot, at now: Double) {
        entries.withLock { $0[provider] = .shared(snapshot, at: now) }
    }

    func sawLocal(_ provider: String) {
        entries.withLock { $0[provider] = .local }
    }

    /// Every provider the local state or the mirror knows, sorted by name: the mirror's view
    /// where the last call was shared, the local state's otherwise.
    func statuses(now: Double, local: LocalStewardState) -> [ProviderStatus] {
        let localStatuses = local.statuses(now: now)
        let seen = entries.withLock { $0 }
        var byName: [String: ProviderStatus] = [:]
        for status in localStatuses { byName[status.provider] = status }
        for (provider, entry) in seen {
            if case .shared(let snapshot, let at) = entry {
                byName[provider] = snapshot.status(provider: provider, budget: local.configuration.budget(for: provider),
                                                   elapsed: now - at)
            }
        }
        return byName.keys.sorted().compactMap { byName[$0] }
    }
}
