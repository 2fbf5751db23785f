import Upstream

/// Where a provider's steward state lives in Redis, and for how long.
///
/// - Key: `P + "steward:" + provider` (P = `cache.redis.keyPrefix`, `almanac:` by default),
///   one hash per provider holding its cooldown, breaker, token bucket and retry window
///   (fields: `StewardScript`). Provider names are the steward's own (`google-books`), never
///   client input.
/// - TTL: renewed by every call that writes, and long enough that nothing it forgets still
///   matters: twice the longest of a cooldown's cap (`upstream.maxCooldownSeconds`), the
///   breaker's longest opening, the retry window, a stale probe and the time an empty bucket
///   takes to refill — at least a minute. A provider nobody asked for that long has no cooldown
///   or opening left, a full bucket and an empty retry window: exactly a missing key. What is
///   lost is only a cooldown's doubling streak and a closed breaker's failure count after that
///   quiet spell, which is what a restarted replica forgets today.
struct StewardKeyLayout: Sendable, Equatable {
    let prefix: [UInt8]

    init(keyPrefix: [UInt8]) { prefix = keyPrefix }

    func key(for provider: String) -> [UInt8] { prefix + Array("steward:".utf8) + Array(provider.utf8) }

    static let minimumTTLSeconds = 60.0

    static func ttlMilliseconds(limits: StewardLimits, budget: ProviderBudget) -> Int {
        let refill = budget.maxRequestsPerSecond > 0 ? Double(max(1, budget.burst)) / budget.maxRequestsPerSecond : 0
        let longest = [limits.maxCooldownSeconds, StewardLimits.breakerOpenSeconds.max,
                       Double(StewardLimits.retryWindowSeconds), limits.staleProbeSeconds, refill]
            .filter(\.isFinite).max() ?? 0
        // Capped at a day: a budget of one request a day with a large burst is no reason to
        // keep a key for months.
        let seconds = min(86_400, max(minimumTTLSeconds, 2 * longest))
        return Int(seconds * 1000)
    }
}
