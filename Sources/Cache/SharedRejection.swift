/// Why a value read from the shared layer (L2) was not served: the `reason` label of
/// `almanac_cache_l2_rejected_total` and of the log line. Redis is outside almanac's trust:
/// anyone who can write to it can write any bytes under any key, so every value read back is
/// checked as a request is, and one that fails is treated as absent (and deleted).
public enum SharedRejection: String, Error, Sendable, CaseIterable, Hashable {
    /// Not a whole, consistent envelope of the version this replica writes (another version,
    /// truncated, lengths that do not add up, bytes after the end, a validator that is not
    /// visible ASCII).
    case envelope
    /// Stored for another key or namespace: the envelope names another, or the value holds
    /// another (a book's ISBN-13, a history block's last day).
    case key
    /// The value's bytes are not a record its type writes.
    case value
    /// The envelope's validator is not the one almanac computes for the value it carries (an
    /// `ETag` is never taken from Redis on trust).
    case validator
    /// Stored later than now (plus `SharedEntryCheck.futureToleranceMilliseconds` of clock skew).
    case storedAt = "stored_at"
    /// Fresh for longer than the namespace's configured TTL allows.
    case expiry
}

/// A namespace's configured lifetimes, the longest any value of it may claim in the shared
/// layer: `ttlSeconds` the longest freshness (the largest TTL the namespace's loads give),
/// `staleSeconds` the longest stale window.
public struct SharedValueLimits: Sendable, Equatable {
    public var ttlSeconds: Double
    public var staleSeconds: Double

    public init(ttlSeconds: Double, staleSeconds: Double) {
        self.ttlSeconds = ttlSeconds
        self.staleSeconds = staleSeconds
    }
}

/// One rejected value, for the log line (at most one a minute per reason).
public struct SharedRejectionEvent: Sendable, Equatable {
    public var namespace: String
    /// The cache key as text (printable; bytes outside visible ASCII are escaped).
    public var key: String
    public var reason: SharedRejection

    public init(namespace: String, key: String, reason: SharedRejection) {
        self.namespace = namespace
        self.key = key
        self.reason = reason
    }
}
