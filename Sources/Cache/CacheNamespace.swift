import Synchronization

/// A typed view on one namespace of a `CacheStore`; cheap to create, all views of one name
/// share the same entries, flights and counters.
public final class CacheNamespace<Key: Hashable & Sendable, Value: CacheValue>: Sendable {
    public let name: String
    @usableFromInline let store: CacheStore
    @usableFromInline let table: NamespaceTable<Key, Value>

    init(name: String, store: CacheStore, table: NamespaceTable<Key, Value>) {
        self.name = name
        self.store = store
        self.table = table
    }

    /// The cached value for `key`: fresh → at once (HIT); missing → one `load` shared by all
    /// concurrent callers (MISS); expired within its stale window → the stale value at once
    /// (STALE) and one background refresh; past the window → a load whose error surfaces.
    ///
    /// A caller whose task is cancelled while waiting gets `CancellationError` at once; the load
    /// goes on for the others, and is cancelled only when its last waiter has gone. Background
    /// refreshes are never cancelled by readers. Errors are never stored.
    ///
    /// Of the MISS answers one load produces, only the caller that started it has `collapsed`
    /// false; the others (and all who joined a background refresh) have it true, even when the
    /// starter has since been cancelled.
    @inlinable
    public func value(
        for key: Key, load: @escaping @Sendable () async throws -> CacheLoad<Value>
    ) async throws -> CacheLookup<Value> {
        let table = self.table
        let now = store.clock.now()
        let first = store.state.withLock { state in
            table.decide(key, now: now, waiter: nil, state: &state)
        }
        if case .served(let lookup, let refresh) = first {
            if let refresh { launch(refresh, key: key, load: load) }
            return lookup
        }
        let waiterID = store.nextWaiterID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Flight<Value>.Continuation) in
                let now = store.clock.now()
                let decision = store.state.withLock { state -> NamespaceTable<Key, Value>.Decision in
                    if Task.isCancelled { return .cancelled }
                    return table.decide(key, now: now, waiter: (waiterID, continuation), state: &state)
                }
                switch decision {
                case .served(let lookup, let refresh):
                    if let refresh { launch(refresh, key: key, load: load) }
                    continuation.resume(returning: lookup)
                case .cancelled, .absent:
                    continuation.resume(throwing: CancellationError())
                case .joined:
                    break
                case .started(let flight):
                    launch(flight, key: key, load: load)
                }
            }
        } onCancel: {
            let (continuation, task) = store.state.withLock { _ in table.withdraw(key, waiter: waiterID) }
            continuation?.resume(throwing: CancellationError())
            task?.cancel()
        }
    }

    /// Synchronous fast path: a fresh entry (counted as a hit), else nil and nothing counted.
    /// Lets the HTTP connection's queue answer hits without hopping to the concurrency pool.
    @inlinable
    public func fresh(_ key: Key) -> CacheLookup<Value>? {
        let table = self.table
        let now = store.clock.now()
        return store.state.withLock { state in table.fresh(key, now: now, state: &state) }
    }

    /// Drops every entry of this namespace (see `CacheStore.purgeAll()`).
    public func purge() {
        let table = self.table
        store.state.withLock { state in table.removeAll(state: &state) }
    }

    /// This namespace's counters.
    public func stats() -> CacheStats {
        let table = self.table
        return store.state.withLock { _ in table.counters }
    }

    @inlinable
    func launch(_ flight: Flight<Value>, key: Key, load: @escaping @Sendable () async throws -> CacheLoad<Value>) {
        let background = flight.background
        let task = Task { await CacheRefresh.$isBackground.withValue(background) { await self.run(flight, key: key, load: load) } }
        guard !flight.background else { return }
        let cancelNow = store.state.withLock { _ -> Bool in
            if flight.abandoned { return true }
            flight.task = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    @inlinable
    func run(_ flight: Flight<Value>, key: Key, load: @Sendable () async throws -> CacheLoad<Value>) async {
        let result: Result<CacheLoad<Value>, any Error>
        do {
            result = .success(try await load())
        } catch {
            result = .failure(error)
        }
        var prepared: PreparedValue<Value>?
        if case .success(let loaded) = result {
            prepared = PreparedValue(
                load: loaded, validator: loaded.value.cacheValidator, cost: loaded.value.cacheCost,
                unit: store.randomUnit())
        }
        let now = store.clock.now()
        let (table, limits, retry) = (self.table, store.limits, store.refreshRetrySeconds)
        let finished = store.state.withLock { state in
            table.finish(
                flight, key: key, prepared: prepared, now: now, limits: limits, retrySeconds: retry, state: &state)
        }
        switch result {
        case .success:
            var lookup = finished.lookup!
            for waiter in finished.waiters {
                lookup.collapsed = waiter.collapsed
                waiter.continuation.resume(returning: lookup)
            }
        case .failure(let error):
            for waiter in finished.waiters { waiter.continuation.resume(throwing: error) }
        }
    }
}
