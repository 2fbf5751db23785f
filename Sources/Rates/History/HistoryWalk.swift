import Cache
import HTTPClient
import Synchronization
import Upstream

/// The days one exchange answered for one currency, and the cached blocks holding them.
struct HistorySegment: Sendable {
    var provider: String
    var days: ClosedRange<Int64>
    var lookups: [CacheLookup<HistoryBlock>]
}

/// State of one fall-through over exchanges: the days still without a provider, and the
/// first day of each exchange that failed. `ProviderChain` asks providers one at a time, so
/// the lock is never contended; it makes the shared state safe to capture in the providers'
/// `@Sendable` closures.
final class HistoryWalk: Sendable {
    private struct State {
        var remaining: ClosedRange<Int64>?
        var failures: [UpstreamError] = []
        var skipped: [ProviderSkipped] = []
        var failedEarliest = Int64.max
    }

    private let state: Mutex<State>

    init(_ days: ClosedRange<Int64>) {
        state = Mutex(State(remaining: days))
    }

    var remaining: ClosedRange<Int64>? {
        get { state.withLock { $0.remaining } }
        set { state.withLock { $0.remaining = newValue } }
    }

    /// Records why an exchange holding days from `earliest` on gave nothing (cancellation aside).
    func failed(_ earliest: Int64, provider: String, _ error: any Error) {
        state.withLock { s in
            switch error {
            case is CancellationError: return
            case let e as UpstreamError:
                if e.kind == .cancelled { return }
                s.failures.append(e)
            case let e as ProviderSkipped: s.skipped.append(e)
            case let e as ProvidersUnavailable:
                s.failures += e.failures
                s.skipped += e.skipped
            default: s.failures.append(UpstreamError(.other, provider: provider, detail: String(describing: error)))
            }
            s.failedEarliest = min(s.failedEarliest, earliest)
        }
    }

    /// The failure to report when days a failed exchange holds were left without a value.
    func unavailable() -> ProvidersUnavailable? {
        state.withLock { s in
            guard let left = s.remaining, left.upperBound >= s.failedEarliest,
                  !(s.failures.isEmpty && s.skipped.isEmpty) else { return nil }
            return ProvidersUnavailable(failures: s.failures, skipped: s.skipped)
        }
    }
}
