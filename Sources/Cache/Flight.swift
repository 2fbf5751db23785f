/// One load in progress for one key: the single flight every concurrent miss joins.
///
/// A foreground flight was started by a miss and is cancelled when its last waiter leaves; a
/// background flight is a stale-while-revalidate refresh and is never cancelled by readers
/// (misses may still join it and wait for its result).
///
/// The waiter that started a foreground flight is its leader; every other waiter is a follower
/// and gets its lookup with `collapsed` set. A background flight has no leader, so all who join
/// it are followers. A leader that leaves stays the leader: the load was started for it, so the
/// waiters that remain are still followers.
@usableFromInline
final class Flight<Value: CacheValue>: @unchecked Sendable {
    // @unchecked: every mutable field is read and written only while holding CacheStore's mutex.
    @usableFromInline typealias Continuation = CheckedContinuation<CacheLookup<Value>, any Error>

    @usableFromInline let background: Bool
    /// The waiter ID that started this flight (nil for a background refresh).
    @usableFromInline let leader: UInt64?
    @usableFromInline var waiters: [(id: UInt64, continuation: Continuation)] = []
    /// The task running the load (foreground only; set right after launch).
    @usableFromInline var task: Task<Void, Never>?
    /// Set when the last waiter of a foreground flight left: its task is (to be) cancelled.
    @usableFromInline var abandoned = false

    /// A background refresh (no leader), or a foreground load started by waiter `leader`.
    @usableFromInline
    init(background: Bool, leader: UInt64? = nil) {
        self.background = background
        self.leader = background ? nil : leader
    }

    /// Whether waiter `id` joined a load someone else started.
    @inlinable
    func collapsed(_ id: UInt64) -> Bool {
        id != leader
    }
}

/// A flight's result, priced and validated outside the lock (both call the value's own code),
/// with the entry's times already decided: planned from the load's TTL, or as stored in the
/// shared layer.
@usableFromInline
struct PreparedValue<Value: CacheValue>: Sendable {
    @usableFromInline var value: Value
    @usableFromInline var validator: String
    @usableFromInline var cost: Int
    /// Monotonic seconds, as in `EntryTimes`.
    @usableFromInline var loadedAt: Double
    @usableFromInline var expiresAt: Double
    @usableFromInline var staleUntil: Double
    /// `.miss` for a load; `.hit` / `.stale` for a value adopted from the shared layer.
    @usableFromInline var outcome: CacheOutcome
    @usableFromInline var source: CacheSource

    @inlinable
    init(value: Value, validator: String, cost: Int, loadedAt: Double, expiresAt: Double, staleUntil: Double,
         outcome: CacheOutcome = .miss, source: CacheSource = .memory) {
        (self.value, self.validator, self.cost) = (value, validator, cost)
        (self.loadedAt, self.expiresAt, self.staleUntil) = (loadedAt, expiresAt, staleUntil)
        (self.outcome, self.source) = (outcome, source)
    }

    /// A load's result at `now`: freshness is the TTL jittered down by up to 10%
    /// (`ttl × (1 − 0.1 × unit)`), then the stale window; non-finite or negative inputs count as 0.
    @inlinable
    init(load: CacheLoad<Value>, validator: String, cost: Int, unit: Double, now: Double) {
        let ttl = load.ttlSeconds.isFinite ? max(0, load.ttlSeconds) : 0
        let staleSeconds = load.staleSeconds.isFinite ? max(0, load.staleSeconds) : 0
        let unit = unit.isFinite ? min(1, max(0, unit)) : 0
        let expiresAt = now + ttl * (1 - 0.1 * unit)
        self.init(value: load.value, validator: validator, cost: cost, loadedAt: now, expiresAt: expiresAt,
                  staleUntil: expiresAt + staleSeconds)
    }
}
