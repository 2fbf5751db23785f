import Cache
import Synchronization

/// The warn line for a value read from Redis and not served (`SharedRejection`): someone or
/// something wrote bytes almanac did not write for that key. The metric
/// `almanac_cache_l2_rejected_total` counts every one; the log names one example key a minute
/// per reason, so a poisoned store cannot flood the log.
final class SharedRejectionLog: Sendable {
    private let logger: Logger
    private let clock: any CacheClock
    private let limit = Mutex(OncePerInterval(interval: 60))

    init(logger: Logger, clock: any CacheClock = MonotonicCacheClock()) {
        self.logger = logger
        self.clock = clock
    }

    func rejected(_ event: SharedRejectionEvent) {
        let now = clock.now()
        guard limit.withLock({ $0.allow(event.reason.rawValue, now: now) }) else { return }
        logger.warn("shared cache: value in Redis refused, treated as absent and deleted", [
            "namespace": .string(event.namespace),
            "key": .string(event.key),
            "reason": .string(event.reason.rawValue),
        ])
    }
}
