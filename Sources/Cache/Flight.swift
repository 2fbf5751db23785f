/// One load in progress for one key: the single flight every concurrent miss joins.
///
/// A foreground flight was started by a miss and is cancelled when its last waiter leaves; a
/// background flight is a stale-while-revalidate refresh and is never cancelled by readers
/// (misses may still join it and wait for its result).
@usableFromInline
final class Flight<Value: CacheValue>: @unchecked Sendable {
    // @unchecked: every mutable field is read and written only while holding CacheStore's mutex.
    @usableFromInline typealias Continuation = CheckedContinuation<CacheLookup<Value>, any Error>

    @usableFromInline let background: Bool
    @usableFromInline var waiters: [(id: UInt64, continuation: Continuation)] = []
    /// The task running the load (foreground only; set right after launch).
    @usableFromInline var task: Task<Void, Never>?
    /// Set when the last waiter of a foreground flight left: its task is (to be) cancelled.
    @usableFromInline var abandoned = false

    @usableFromInline
    init(background: Bool) {
        self.background = background
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
