
/// A value the cache can hold: it reports what it costs (for `cache.maxBytes`) and a strong
/// validator that changes whenever its content does (the HTTP layer derives ETags from it).
public protocol CacheValue: Sendable {
    /// Approximate bytes held by this value (payload bytes; the cache adds its own overhead).
    var cacheCost: Int { get }
    /// A strong validator of the content, e.g. a hex digest of its canonical bytes.
    var cacheValidator: String { get }
}

/// What a load produced and how long it may be served: loaders choose the TTL, so a
/// "no such book" answer can live for `notFoundTtlSeconds` and a found one for `ttlSeconds`.
public struct CacheLoad<Value: CacheValue>: Sendable {
    public var value: Value
    /// Nominal freshness; the stored freshness is jittered down by up to 10%.
    public var ttlSeconds: Double
    /// How long after expiry the value may still be served stale (SWR / stale-if-error).
    public var staleSeconds: Double
    public init(value: Value, ttlSeconds: Double, staleSeconds: Double) {
        self.value = value
        self.ttlSeconds = ttlSeconds
        self.staleSeconds = staleSeconds
    }
}

/// How a lookup was served; the raw value is what `X-Cache` carries.
public enum CacheOutcome: String, Sendable {
    case hit = "HIT", miss = "MISS", stale = "STALE"
}

/// Which layer answered a lookup.
public enum CacheSource: Sendable {
    /// This process: its in-memory layer (L1), or a load it ran or joined.
    case memory
    /// The shared layer (L2) every replica fills: another replica (or this one, before a restart
    /// or a purge of L1) loaded the value; `Cache-Status` says `detail=redis`.
    case shared
}

/// A value as the cache served it, with what the HTTP layer needs for `X-Cache`, `Age`,
/// `Cache-Control: max-age`, `ETag` and `Cache-Status` (RFC 9211).
public struct CacheLookup<Value: CacheValue>: Sendable {
    public var value: Value
    public var outcome: CacheOutcome
    /// Seconds since the value was loaded.
    public var ageSeconds: Double
    /// Seconds of freshness left (0 when stale).
    public var freshnessLeftSeconds: Double
    /// The value's validator, computed once when it was stored.
    public var validator: String
    /// True when this miss was served by a load that another caller started (it joined the
    /// key's single flight as a follower, or joined a background refresh): RFC 9211's
    /// `collapsed`, so `Cache-Status` can tell the one request that went upstream from the ones
    /// that shared its answer. False for the caller that started the load, and for hits and
    /// stale answers.
    public var collapsed: Bool
    /// Where the value came from: `.shared` only for the lookups of the flight that adopted it
    /// from L2 (later L1 hits on it are `.memory`).
    public var source: CacheSource
    public init(value: Value, outcome: CacheOutcome, ageSeconds: Double, freshnessLeftSeconds: Double,
                validator: String, collapsed: Bool = false, source: CacheSource = .memory) {
        self.value = value
        self.outcome = outcome
        self.ageSeconds = ageSeconds
        self.freshnessLeftSeconds = freshnessLeftSeconds
        self.validator = validator
        self.collapsed = collapsed
        self.source = source
    }
}

/// A monotonic time source in seconds; tests inject a manual one.
public protocol CacheClock: Sendable {
    func now() -> Double
}

/// The one memory budget shared by every namespace of a store (`cache.maxEntries`,
/// `cache.maxBytes`); past either, least recently used entries go first.
public struct CacheLimits: Sendable {
    public var maxEntries: Int = 10_000
    public var maxBytes: Int = 67_108_864
    public init(maxEntries: Int = 10_000, maxBytes: Int = 67_108_864) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }
}

/// Counters of one namespace (for `/metrics` and `GET /admin/cache`).
/// `entries` and `bytes` are exact (the sum over the namespace's entries, each charged
/// `cacheCost + CacheStore.entryOverheadBytes`); the other counters only grow, purges included.
public struct CacheStats: Sendable, Equatable {
    public var entries: Int = 0
    public var bytes: Int = 0
    /// Fresh answers: `value(for:)` HITs plus non-nil `fresh(_:)` results.
    public var hits: UInt64 = 0
    /// `value(for:)` calls that waited for a load (their own or a shared one).
    public var misses: UInt64 = 0
    /// `value(for:)` calls answered with a stale value (stale-while-revalidate / if-error).
    public var stale: UInt64 = 0
    /// Entries dropped to respect `maxEntries` / `maxBytes` (not expiry, not purges).
    public var evictions: UInt64 = 0
    /// Loads running now: foreground misses, background refreshes, abandoned loads unwinding.
    public var loadsInFlight: Int = 0
    public init() {}
}
