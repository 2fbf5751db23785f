import Synchronization
import Transport

/// All namespaces under one memory budget (`cache.maxEntries`, `cache.maxBytes`), least
/// recently used first out across namespaces.
///
/// One mutex guards plain arrays and dictionaries (no object per entry); critical sections
/// never await and never call a value's or loader's code. A fresh hit on a server event loop
/// takes no lock shared with another loop: each loop reads its own `LoopReplica`, which the
/// store keeps exact under its mutex.
public final class CacheStore: Sendable {
    /// Bytes charged per entry on top of `CacheValue.cacheCost`: the key's dictionary slot, the
    /// entry slot (times, validator, indices), its recency node and the validator string's heap
    /// storage, with typical array/dictionary slack. Measured by `bench-cache` (docs/cache.md).
    public static let entryOverheadBytes = 288

    /// At most this many entries in one event loop's replica of one namespace (`LoopReplica`):
    /// about 100 bytes each, for keys that loop has hit, pointing at values the store holds.
    public static let loopReplicaCapacity = 16_384

    @usableFromInline let limits: CacheLimits
    @usableFromInline let clock: any CacheClock
    /// Whether `clock` is the production `MonotonicCacheClock`, which `now()` then reads
    /// directly: a cached hit reads the time, and reading it through the existential copied
    /// and opened the box each time.
    @usableFromInline let clockIsMonotonic: Bool
    @usableFromInline let randomUnit: @Sendable () -> Double
    @usableFromInline let refreshRetrySeconds: Double
    /// Told when a background refresh failed: the entry's stale value goes on being served
    /// (stale-if-error) and operators want to know (see `RefreshFailure`).
    @usableFromInline let onRefreshFailure: (@Sendable (RefreshFailure) -> Void)?
    @usableFromInline let state = Mutex(StoreState())
    /// The shared second layer (L2), when replicas share one (`cache.redis.url`); nil: this
    /// process's memory only, exactly as a store without it.
    public let shared: SharedCacheLayer?
    private let waiterIDs = Atomic<UInt64>(0)

    /// The store's time (`clock`), in seconds.
    @inlinable
    func now() -> Double {
        clockIsMonotonic ? MonotonicCacheClock().now() : clock.now()
    }

    /// - Parameters:
    ///   - clock: monotonic seconds; defaults to `MonotonicCacheClock` (tests pass a `ManualCacheClock`).
    ///   - randomUnit: jitter source in [0, 1]; freshness is `ttl × (1 − 0.1 × randomUnit())`, so
    ///     entries loaded together do not all expire (and hit upstream) together.
    ///   - refreshRetrySeconds: after a failed background refresh, reads keep getting the stale
    ///     value and start another refresh no sooner than this (0: the next read may retry).
    ///     Never more than one refresh per key is in flight either way.
    ///   - onRefreshFailure: called (outside the lock, on the refresh's task) each time a
    ///     background refresh fails.
    ///   - shared: the layer every replica shares; consulted by namespaces whose key and value
    ///     types conform to `SharedCacheKey` / `SharedCacheValue`, only when L1 cannot answer.
    ///     Call `startSharedLayer()` once to receive other replicas' purges.
    public init(
        limits: CacheLimits, clock: (any CacheClock)? = nil,
        randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        refreshRetrySeconds: Double = 0,
        onRefreshFailure: (@Sendable (RefreshFailure) -> Void)? = nil,
        shared: SharedCacheLayer? = nil
    ) {
        self.shared = shared
        self.limits = limits
        self.clock = clock ?? MonotonicCacheClock()
        self.clockIsMonotonic = clock == nil || clock is MonotonicCacheClock
        self.randomUnit = randomUnit
        self.refreshRetrySeconds = refreshRetrySeconds
        self.onRefreshFailure = onRefreshFailure
    }

    /// A typed view on one namespace (`rates`, `books`, `covers`). Asking twice for the same
    /// name returns views on the same entries. Asking for a known name with other key or value
    /// types is a programming error and traps. Its entries live in this process only.
    public func namespace<Key: Hashable & Sendable, Value: CacheValue>(
        _ name: String, keyType: Key.Type, valueType: Value.Type
    ) -> CacheNamespace<Key, Value> {
        CacheNamespace(name: name, store: self, table: table(name, shared: false), shared: nil)
    }

    /// A typed view on one namespace whose keys and values can travel through the shared layer:
    /// with a `shared` layer, its misses and refreshes go through L2 (chosen over the plain
    /// overload whenever the types conform).
    public func namespace<Key: SharedCacheKey, Value: SharedCacheValue>(
        _ name: String, keyType: Key.Type, valueType: Value.Type
    ) -> CacheNamespace<Key, Value> {
        let binding = shared.map { SharedBinding<Key, Value>(layer: $0) }
        return CacheNamespace(name: name, store: self, table: table(name, shared: binding != nil), shared: binding)
    }

    private func table<Key: Hashable & Sendable, Value: CacheValue>(_ name: String, shared: Bool) -> NamespaceTable<Key, Value> {
        state.withLock { state -> NamespaceTable<Key, Value> in
            if let id = state.tableIndex[name] {
                guard let table = state.tables[Int(id)] as? NamespaceTable<Key, Value> else {
                    preconditionFailure("cache namespace '\(name)' already exists with other key/value types")
                }
                return table
            }
            let table = NamespaceTable<Key, Value>(
                id: Int32(state.tables.count), loops: LoopShard.count - 1,
                replicaCapacity: min(limits.maxEntries, CacheStore.loopReplicaCapacity))
            state.tableIndex[name] = table.id
            state.tables.append(table)
            if shared { state.sharedTables.append(table.id) }
            return table
        }
    }

    /// Drops every entry (counters stay: they are monotonic for `/metrics`). Loads in flight
    /// carry on and may store their results when they complete.
    public func purgeAll() {
        state.withLock { state in
            for table in state.tables { table.removeAll(state: &state) }
        }
    }

    /// Drops every entry of one namespace. Returns false when no namespace has that name.
    @discardableResult public func purge(namespace: String) -> Bool {
        state.withLock { state in
            guard let id = state.tableIndex[namespace] else { return false }
            state.tables[Int(id)].removeAll(state: &state)
            return true
        }
    }

    /// Exact counters per namespace name, taken in one critical section.
    public func stats() -> [String: CacheStats] {
        state.withLock { state in
            state.tableIndex.mapValues { state.tables[Int($0)].statistics }
        }
    }

    /// Entries and bytes over all namespaces (what the limits apply to).
    public func totals() -> (entries: Int, bytes: Int) {
        state.withLock { ($0.entries, $0.bytes) }
    }

    @usableFromInline
    func nextWaiterID() -> UInt64 {
        waiterIDs.add(1, ordering: .relaxed).newValue
    }
}
