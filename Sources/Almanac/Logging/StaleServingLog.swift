import Cache

/// The warn line for stale-if-error serving: a background refresh failed, so the cache goes on
/// serving the stale answer and clients see nothing wrong. Without this line an outage hidden
/// by the cache would be invisible at `log.level=warn`. At most one line per key per minute.
final class StaleServingLog: Sendable {
    private let warning: ThrottledWarning

    init(logger: Logger, clock: any CacheClock = MonotonicCacheClock()) {
        warning = ThrottledWarning(logger: logger, clock: clock)
    }

    /// Called on the refresh's task, which carries the ids of the request that found the
    /// answer stale and started the refresh (`RequestLogContext.current`).
    func refreshFailed(_ failure: RefreshFailure, request: RequestLogContext = .current) {
        warning.warn(once: failure.namespace + "/" + failure.key, "serving stale answers: refresh failed", [
            "namespace": .string(failure.namespace),
            "key": .string(failure.key),
            "cause": .string(String(describing: failure.error)),
        ], for: request)
    }
}
