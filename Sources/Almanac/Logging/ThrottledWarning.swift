import Cache
import Synchronization

/// A `warn` line that would otherwise repeat on every request, written at most once a minute
/// per key (`OncePerInterval`): an outage or a poisoned store is seen in the log without
/// flooding it.
final class ThrottledWarning: Sendable {
    private let logger: Logger
    private let clock: any CacheClock
    private let limit = Mutex(OncePerInterval(interval: 60))

    init(logger: Logger, clock: any CacheClock = MonotonicCacheClock()) {
        self.logger = logger
        self.clock = clock
    }

    /// Writes the line unless one was written for `key` within the last minute; the line
    /// carries the ids of `request`, the one that met the condition this time.
    func warn(once key: String, _ message: String, _ fields: KeyValuePairs<String, Logger.Value>,
              for request: RequestLogContext) {
        let now = clock.now()
        guard limit.withLock({ $0.allow(key, now: now) }) else { return }
        logger.warn(message, fields, for: request)
    }
}
