/// How a representation was served, in the terms the HTTP layer labels it with (`X-Cache`,
/// `Age`, `Cache-Control: max-age`, `Cache-Status`): one lookup's, or several lookups combined
/// (a history range assembled from cached blocks).
public struct CacheFreshness: Sendable, Equatable {
    public var outcome: CacheOutcome
    /// Seconds since the (oldest) value was loaded.
    public var ageSeconds: Double
    /// Seconds of freshness left (0 when stale).
    public var freshnessLeftSeconds: Double
    /// A miss answered by a load another request started (RFC 9211 `collapsed`); see
    /// `CacheLookup.collapsed`.
    public var collapsed: Bool
    /// Served from the shared cache (Redis) rather than this process (`CacheLookup.source`).
    public var shared: Bool

    public init(outcome: CacheOutcome, ageSeconds: Double, freshnessLeftSeconds: Double, collapsed: Bool = false,
                shared: Bool = false) {
        self.outcome = outcome
        self.ageSeconds = ageSeconds
        self.freshnessLeftSeconds = freshnessLeftSeconds
        self.collapsed = collapsed
        self.shared = shared
    }

    /// One lookup's: inlinable, as every cached hit builds one.
    @inlinable
    public init<V>(_ lookup: CacheLookup<V>) {
        self.init(outcome: lookup.outcome, ageSeconds: lookup.ageSeconds,
                  freshnessLeftSeconds: lookup.freshnessLeftSeconds, collapsed: lookup.collapsed,
                  shared: lookup.source == .shared)
    }
}
