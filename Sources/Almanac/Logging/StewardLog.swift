import Upstream

/// One `warn` line per provider state change (never per request): entering and leaving a
/// cooldown, a breaker opening and closing.
enum StewardLog {
    static func write(_ change: StewardChange, provider: String, to logger: Logger) {
        switch change {
        case .cooldownStarted(let seconds):
            logger.warn("upstream provider asked to stop: cooling down", [
                "provider": .string(provider), "cooldown_seconds": .double(seconds)])
        case .cooldownEnded:
            logger.warn("upstream provider cooldown over", ["provider": .string(provider)])
        case .breakerOpened(let seconds, let failures):
            logger.warn("upstream breaker opened", [
                "provider": .string(provider), "consecutive_failures": .int(failures), "open_seconds": .double(seconds)])
        case .breakerClosed:
            logger.warn("upstream breaker closed", ["provider": .string(provider)])
        }
    }
}
