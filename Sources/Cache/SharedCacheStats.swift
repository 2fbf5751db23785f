/// Counters of the shared layer (`/metrics`); they only grow, except `up`.
public struct SharedCacheStats: Sendable, Equatable {
    /// Whether the shared store answers now.
    public var up = false
    /// Flights answered by a fresh value from the shared store.
    public var hits: UInt64 = 0
    /// Misses answered by a value within its stale window from the shared store.
    public var staleHits: UInt64 = 0
    /// Flights that found no usable value in the shared store.
    public var misses: UInt64 = 0
    /// Calls to the shared store that failed (down, slow, refused).
    public var errors: UInt64 = 0
    /// Flights that found another replica loading the key and waited for it.
    public var lockWaits: UInt64 = 0
    /// Waiting flights that took the lock over (its holder died or failed without a value).
    public var takeovers: UInt64 = 0
    /// Waiting flights that gave up after the wait limit and loaded by themselves.
    public var waitTimeouts: UInt64 = 0
    /// Envelopes written.
    public var stores: UInt64 = 0
    /// Values kept in L1 only because their envelope exceeded `maxValueBytes`.
    public var oversized: UInt64 = 0
    /// Purges carried out in the shared store.
    public var purges: UInt64 = 0
    /// Times this replica's L1 was resynchronized after invalidations may have been missed.
    public var gaps: UInt64 = 0
    /// Values read from the shared store and not served, by namespace and reason.
    public var rejected: [SharedRejectionCount: UInt64] = [:]
    public init() {}
}

/// The labels of one `almanac_cache_l2_rejected_total` series.
public struct SharedRejectionCount: Sendable, Hashable {
    public var namespace: String
    public var reason: SharedRejection
    public init(namespace: String, reason: SharedRejection) {
        self.namespace = namespace
        self.reason = reason
    }
}
