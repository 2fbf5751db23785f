/// The checks of a shared-layer entry that do not depend on its value type (pure, tested
/// without sockets): whose key the envelope names, and whether its times are ones a replica of
/// this configuration writes. The value's own checks (its record, its key, its validator) are
/// `SharedBinding.accept`'s.
enum SharedEntryCheck {
    /// How far a stored-at time may be ahead of this replica's clock: the skew tolerated between
    /// replicas' wall clocks.
    static let futureToleranceMilliseconds: Int64 = 5_000

    /// `envelope` as it may be served at `now` (Unix ms), or why not. A stale window longer than
    /// `limits` allows is cut to the configured one (the value itself may be fine; it is only
    /// kept for less long). Without limits (a namespace nobody configured), only the layer's
    /// absolute bound applies.
    static func check(_ envelope: SharedEnvelope, expectedKey: [UInt8], now: Int64,
                      limits: SharedValueLimits?) -> Result<SharedEnvelope, SharedRejection> {
        guard envelope.key == expectedKey else { return .failure(.key) }
        guard envelope.storedAtMilliseconds <= now &+ futureToleranceMilliseconds else { return .failure(.storedAt) }
        // `init(decoding:)` guarantees stored ≤ expires ≤ staleUntil; the differences may still
        // overflow Int64 (INT64_MIN stored), hence the checked subtraction.
        let freshFor = envelope.expiresAtMilliseconds.subtractingReportingOverflow(envelope.storedAtMilliseconds)
        let staleFor = envelope.staleUntilMilliseconds.subtractingReportingOverflow(envelope.expiresAtMilliseconds)
        guard !freshFor.overflow, !staleFor.overflow else { return .failure(.expiry) }
        let maxFresh = limits.map { SharedCacheLayer.milliseconds($0.ttlSeconds) } ?? SharedCacheLayer.longestLifetimeMilliseconds
        let maxStale = limits.map { SharedCacheLayer.milliseconds($0.staleSeconds) } ?? SharedCacheLayer.longestLifetimeMilliseconds
        // One millisecond of slack: the writer rounds stored-at and expiry to whole milliseconds apart.
        guard freshFor.partialValue <= maxFresh &+ 1 else { return .failure(.expiry) }
        var accepted = envelope
        if staleFor.partialValue > maxStale &+ 1 {
            accepted.staleUntilMilliseconds = envelope.expiresAtMilliseconds + max(0, maxStale)
        }
        return .success(accepted)
    }
}
