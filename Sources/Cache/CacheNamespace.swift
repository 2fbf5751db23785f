import Synchronization
import Transport

/// A typed view on one namespace of a `CacheStore`; cheap to create, all views of one name
/// share the same entries, flights and counters.
public final class CacheNamespace<Key: Hashable & Sendable, Value: CacheValue>: Sendable {
    public let name: String
    @usableFromInline let store: CacheStore
    @usableFromInline let table: NamespaceTable<Key, Value>
    /// Set when the store has a shared layer and the key and value types can travel through it:
    /// misses and refreshes then consult L2 before loading (see `SharedCacheLayer`).
    @usableFromInline let shared: SharedBinding<Key, Value>?

    init(name: String, store: CacheStore, table: NamespaceTable<Key, Value>, shared: SharedBinding<Key, Value>?) {
        self.name = name
        self.store = store
        self.table = table
        self.shared = shared
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
    /// Lets the HTTP connection's event loop answer hits without hopping to the concurrency pool.
    ///
    /// On a server event loop (`LoopShard.current` > 0) it reads that loop's `LoopReplica`
    /// first: a hit there takes no lock and writes no memory another loop uses. Elsewhere (a
    /// task, a test thread), and on a replica miss, it asks the store under its mutex.
    @inlinable
    public func fresh(_ key: Key) -> CacheLookup<Value>? {
        let table = self.table
        let now = store.now()
        let shard = LoopShard.current
        guard shard > 0, shard <= table.replicas.count else {
            return store.state.withLock { state in table.fresh(key, now: now, state: &state) }
        }
        let replica = table.replicas[shard - 1]
        if let hit = replica.hit(key, now: now) { return hit }
        return store.state.withLock { state in table.fresh(key, now: now, replica: replica, state: &state) }
    }

    /// Drops every entry of this namespace (see `CacheStore.purgeAll()`).
    public func purge() {
        let table = self.table
        store.state.withLock { state in table.removeAll(state: &state) }
    }

    /// This namespace's counters.
    public func stats() -> CacheStats {
        let table = self.table
        return store.state.withLock { _ in table.statistics }
    }

    @inlinable
    func launch(_ flight: Flight<Value>, key: Key, load: @escaping @Sendable () async throws -> CacheLoad<Value>) {
        let background = flight.background
        let task = Task {
            let refresh = await CacheRefresh.$isBackground.withValue(background) { await self.run(flight, key: key, load: load) }
            // A miss answered stale from the shared layer: revalidate now, as a stale L1 read does.
            if refresh { _ = try? await self.value(for: key, load: load) }
        }
        guard !flight.background else { return }
        let cancelNow = store.state.withLock { _ -> Bool in
            if flight.abandoned { return true }
            flight.task = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// Runs the flight's load (through the shared layer when there is one) and answers its
    /// waiters. True when it adopted a stale value from the shared layer, which wants a refresh.
    @inlinable
    func run(_ flight: Flight<Value>, key: Key, load: @Sendable () async throws -> CacheLoad<Value>) async -> Bool {
        let result: Result<PreparedValue<Value>, any Error>
        if let shared {
            result = await runShared(shared, background: flight.background, key: key, load: load)
        } else {
            result = await prepare(load)
        }
        let now = store.clock.now()
        let (table, limits, retry) = (self.table, store.limits, store.refreshRetrySeconds)
        let finished = store.state.withLock { state in
            table.finish(
                flight, key: key, prepared: try? result.get(), now: now, limits: limits, retrySeconds: retry,
                state: &state)
        }
        switch result {
        case .success(let prepared):
            var lookup = finished.lookup!
            for waiter in finished.waiters {
                lookup.collapsed = waiter.collapsed
                waiter.continuation.resume(returning: lookup)
            }
            return prepared.outcome == .stale
        case .failure(let error):
            for waiter in finished.waiters { waiter.continuation.resume(throwing: error) }
            if flight.background {
                store.onRefreshFailure?(RefreshFailure(namespace: name, key: "\(key)", error: error))
            }
            return false
        }
    }

    /// Runs `load` and prices its value (outside the lock: both call the value's own code).
    @inlinable
    func prepare(_ load: @Sendable () async throws -> CacheLoad<Value>) async -> Result<PreparedValue<Value>, any Error> {
        do {
            let loaded = try await load()
            let (validator, cost) = (loaded.value.cacheValidator, loaded.value.cacheCost)
            return .success(PreparedValue(
                load: loaded, validator: validator, cost: cost, unit: store.randomUnit(), now: store.clock.now()))
        } catch {
            return .failure(error)
        }
    }

    /// A flight through the shared layer: adopt the value L2 holds, or load it (holding the
    /// key's fill lock, or after waiting for another replica's load) and store it there, with
    /// times pinned to whole wall-clock milliseconds so that this replica's L1 and every
    /// other replica's agree exactly on `Age` and freshness.
    @usableFromInline
    func runShared(_ shared: SharedBinding<Key, Value>, background: Bool, key: Key,
                   load: @Sendable () async throws -> CacheLoad<Value>) async -> Result<PreparedValue<Value>, any Error> {
        let layer = shared.layer
        let start: SharedCacheLayer.FillStart<Value>
        do {
            let keyBytes = shared.keyBytes(key)
            start = try await layer.fill(namespace: name, key: keyBytes, acceptStale: !background,
                                         clock: store.clock, accept: { shared.accept($0, keyBytes) })
        } catch {
            return .failure(error)
        }
        // Monotonic reading minus wall-clock reading: adds to a Unix time to place it on L1's clock.
        let offset = store.clock.now() - layer.wallClock.now()
        switch start {
        case .adopted(let value, let envelope, let stale):
            let (validator, cost) = (envelope.validator, value.cacheCost)
            return .success(PreparedValue(
                value: value, validator: validator, cost: cost,
                loadedAt: Double(envelope.storedAtMilliseconds) / 1_000 + offset,
                expiresAt: Double(envelope.expiresAtMilliseconds) / 1_000 + offset,
                staleUntil: Double(envelope.staleUntilMilliseconds) / 1_000 + offset,
                outcome: stale ? .stale : .hit, source: .shared))
        case .load(let ticket):
            let result = await prepare(load)
            guard let ticket else { return result }
            guard case .success(var prepared) = result else {
                await layer.finish(ticket, envelope: nil, staleUntilMilliseconds: 0)
                return result
            }
            let stored = SharedCacheLayer.milliseconds(prepared.loadedAt - offset)
            let expires = max(stored, SharedCacheLayer.milliseconds(prepared.expiresAt - offset))
            let staleUntil = max(expires, SharedCacheLayer.milliseconds(prepared.staleUntil - offset))
            prepared.loadedAt = Double(stored) / 1_000 + offset
            prepared.expiresAt = Double(expires) / 1_000 + offset
            prepared.staleUntil = Double(staleUntil) / 1_000 + offset
            let envelope = SharedEnvelope(
                storedAtMilliseconds: stored, expiresAtMilliseconds: expires, staleUntilMilliseconds: staleUntil,
                key: SharedEnvelope.key(namespace: name, key: shared.keyBytes(key)), validator: prepared.validator, value: shared.encode(prepared.value))
            await layer.finish(ticket, envelope: envelope.encoded, staleUntilMilliseconds: staleUntil)
            return .success(prepared)
        }
    }
}
