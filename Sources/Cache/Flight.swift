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

/// A load's result, priced and validated outside the lock (both call the value's own code).
@usableFromInline
struct PreparedValue<Value: CacheValue>: Sendable {
    @usableFromInline var load: CacheLoad<Value>
    @usableFromInline var validator: String
    @usableFromInline var cost: Int
    /// Jitter draw in [0, 1]: freshness = ttl × (1 − 0.1 × unit).
    @usableFromInline var unit: Double

    @inlinable
    init(load: CacheLoad<Value>, validator: String, cost: Int, unit: Double) {
        (self.load, self.validator, self.cost, self.unit) = (load, validator, cost, unit)
    }
}
