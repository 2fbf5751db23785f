import Cache
import Synchronization

/// The warn line for stale-if-error serving: a background refresh failed, so the cache goes on
/// serving the stale answer and clients see nothing wrong. Without this line an outage hidden
/// by the cache would be invisible at `log.level=warn`. At most one line per key per minute.
final class StaleServingLog: Sendable {
    private let logger: Logger
    private let clock: any CacheClock
    private let limit = Mutex(OncePerInterval(interval: 60))

    init(logger: Logger, clock: any CacheClock = MonotonicCacheClock()) {
        self.logger = logger
        self.clock = clock
    }

    func refreshFailed(_ failure: RefreshFailure) {
        let now = clock.now()
        guard limit.withLock({ $0.allow(failure.namespace + "/" + failure.key, now: now) }) else { return }
        logger.warn("serving stale answers: refresh failed", [
            "namespace": .string(failure.namespace),
            "key": .string(failure.key),
            "cause": .string(String(describing: failure.error)),
        ])
    }
}
