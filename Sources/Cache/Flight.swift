/// One load in progress for one key: the single flight every concurrent miss joins.
///
/// A foreground flight was started by a miss and is cancelled when its last waiter leaves; a
/// background flight is a stale-while-revalidate refresh and is never cancelled by readers
/// (misses may still join it and wait for its result).
final class Flight<Value: CacheValue>: @unchecked Sendable {
    // @unchecked: every mutable field is read and written only while holding CacheStore's mutex.
    typealias Continuation = CheckedContinuation<CacheLookup<Value>, any Error>

    let background: Bool
    var waiters: [(id: UInt64, continuation: Continuation)] = []
    /// The task running the load (foreground only; set right after launch).
    var task: Task<Void, Never>?
    /// Set when the last waiter of a foreground flight left: its task is (to be) cancelled.
    var abandoned = false

    init(background: Bool) {
        self.background = background
    }
}

/// A load's result, priced and validated outside the lock (both call the value's own code).
struct PreparedValue<Value: CacheValue>: Sendable {
    var load: CacheLoad<Value>
    var validator: String
    var cost: Int
    /// Jitter draw in [0, 1]: freshness = ttl × (1 − 0.1 × unit).
    var unit: Double
}
