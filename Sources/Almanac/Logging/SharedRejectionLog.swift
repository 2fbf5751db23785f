import Cache

/// The warn line for a value read from Redis and not served (`SharedRejection`): someone or
/// something wrote bytes almanac did not write for that key. The metric
/// `almanac_cache_l2_rejected_total` counts every one; the log names one example key a minute
/// per reason, so a poisoned store cannot flood the log.
final class SharedRejectionLog: Sendable {
    private let warning: ThrottledWarning

    init(logger: Logger, clock: any CacheClock = MonotonicCacheClock()) {
        warning = ThrottledWarning(logger: logger, clock: clock)
    }

    /// Called on the task of the lookup that read the value: the line names that request.
    func rejected(_ event: SharedRejectionEvent, request: RequestLogContext = .current) {
        warning.warn(once: event.reason.rawValue, "shared cache: value in Redis refused, treated as absent and deleted", [
            "namespace": .string(event.namespace),
            "key": .string(event.key),
            "reason": .string(event.reason.rawValue),
        ], for: request)
    }
}
