/// The typed entries of one namespace: key → slot index, slots in a flat array (no object per
/// entry), and the loads in flight. Budget and recency live in `StoreState`, shared by all
/// namespaces.
final class NamespaceTable<Key: Hashable & Sendable, Value: CacheValue>: NamespaceStorage, @unchecked Sendable {
    // @unchecked: every field is read and written only while holding CacheStore's mutex.

    struct Entry {
        var key: Key
        var value: Value
        var validator: String
        var loadedAt: Double
        var expiresAt: Double
        var staleUntil: Double
        /// A failed refresh is retried by reads no earlier than this.
        var retryAt: Double
        var node: Int32
    }

    /// What a lookup decided, acted on after the lock is released.
    enum Decision: Sendable {
        /// Serve this now; when `refresh` is set, launch it as a background refresh.
        case served(CacheLookup<Value>, refresh: Flight<Value>?)
        /// Nothing servable and no waiter to register (fast path only).
        case absent
        /// The waiter joined a load already in flight.
        case joined
        /// The waiter started a new foreground load: launch it.
        case started(Flight<Value>)
        /// The caller's task was already cancelled.
        case cancelled
    }

    let id: Int32
    private var index: [Key: Int32] = [:]
    private var slots: ContiguousArray<Entry?> = []
    private var freeSlots: [Int32] = []
    private var flights: [Key: Flight<Value>] = [:]
    private(set) var counters = CacheStats()

    init(id: Int32) {
        self.id = id
    }

    // MARK: Lookups

    /// A fresh entry, counted as a hit and made most recent; nil (nothing counted) otherwise.
    func fresh(_ key: Key, now: Double, state: inout StoreState) -> CacheLookup<Value>? {
        guard let slot = index[key], now < slots[Int(slot)]!.expiresAt else { return nil }
        counters.hits += 1
        state.touch(slots[Int(slot)]!.node)
        return lookup(Int(slot), outcome: .hit, now: now)
    }

    /// Classifies `key` at `now`. Fresh → hit; within the stale window → stale plus, when none
    /// is in flight and retry backoff allows, a new background refresh; otherwise a miss that
    /// joins or starts the key's single flight (only when `waiter` is given).
    func decide(
        _ key: Key, now: Double, waiter: (id: UInt64, continuation: Flight<Value>.Continuation)?,
        state: inout StoreState
    ) -> Decision {
        if let slot = index[key] {
            let i = Int(slot)
            let (expiresAt, staleUntil, node) = (slots[i]!.expiresAt, slots[i]!.staleUntil, slots[i]!.node)
            if now < expiresAt {
                counters.hits += 1
                state.touch(node)
                return .served(lookup(i, outcome: .hit, now: now), refresh: nil)
            }
            if now < staleUntil {
                counters.stale += 1
                state.touch(node)
                var refresh: Flight<Value>?
                if flights[key] == nil, now >= slots[i]!.retryAt {
                    let flight = Flight<Value>(background: true)
                    flights[key] = flight
                    counters.loadsInFlight += 1
                    refresh = flight
                }
                return .served(lookup(i, outcome: .stale, now: now), refresh: refresh)
            }
            remove(slot: slot, state: &state, evicted: false)
        }
        guard let waiter else { return .absent }
        counters.misses += 1
        if let flight = flights[key] {
            flight.waiters.append(waiter)
            return .joined
        }
        let flight = Flight<Value>(background: false)
        flight.waiters.append(waiter)
        flights[key] = flight
        counters.loadsInFlight += 1
        return .started(flight)
    }

    private func lookup(_ i: Int, outcome: CacheOutcome, now: Double) -> CacheLookup<Value> {
        let loadedAt = slots[i]!.loadedAt
        let expiresAt = slots[i]!.expiresAt
        return CacheLookup(
            value: slots[i]!.value, outcome: outcome, ageSeconds: max(0, now - loadedAt),
            freshnessLeftSeconds: max(0, expiresAt - now), validator: slots[i]!.validator)
    }

    // MARK: Waiters and flights

    /// Removes a cancelled waiter. Returns its continuation (to resume with CancellationError)
    /// and, when it was the last waiter of a foreground load, that load's task to cancel.
    func withdraw(_ key: Key, waiter id: UInt64) -> (Flight<Value>.Continuation?, Task<Void, Never>?) {
        guard let flight = flights[key], let position = flight.waiters.firstIndex(where: { $0.id == id }) else {
            return (nil, nil)
        }
        let continuation = flight.waiters.remove(at: position).continuation
        guard flight.waiters.isEmpty, !flight.background else { return (continuation, nil) }
        flight.abandoned = true
        flights[key] = nil
        let task = flight.task
        flight.task = nil
        return (continuation, task)
    }

    /// Ends a flight: stores a successful result (even after a purge, or after every waiter left:
    /// it is still the newest answer), notes a failed refresh's backoff, and hands back the
    /// waiters to resume and the lookup they get.
    func finish(
        _ flight: Flight<Value>, key: Key, prepared: PreparedValue<Value>?, now: Double,
        limits: CacheLimits, retrySeconds: Double, state: inout StoreState
    ) -> (waiters: [Flight<Value>.Continuation], lookup: CacheLookup<Value>?) {
        counters.loadsInFlight -= 1
        if flights[key] === flight { flights[key] = nil }
        let waiters = flight.waiters.map(\.continuation)
        flight.waiters = []
        flight.task = nil
        guard let prepared else {
            if flight.background, let slot = index[key] {
                slots[Int(slot)]!.retryAt = now + retrySeconds
            }
            return (waiters, nil)
        }
        let lookup = store(key, prepared, now: now, limits: limits, state: &state)
        return (waiters, lookup)
    }

    // MARK: Storage

    /// Stores a loaded value with its jittered freshness and stale window, then restores the
    /// limits (LRU eviction) and sweeps a few dead entries. A value that could never fit
    /// (cost over `maxBytes`), or that is already past its stale window, is returned but not kept;
    /// any older entry for the key goes with it, since it is no longer the newest answer.
    func store(
        _ key: Key, _ prepared: PreparedValue<Value>, now: Double, limits: CacheLimits, state: inout StoreState
    ) -> CacheLookup<Value> {
        let ttl = prepared.load.ttlSeconds.isFinite ? max(0, prepared.load.ttlSeconds) : 0
        let staleSeconds = prepared.load.staleSeconds.isFinite ? max(0, prepared.load.staleSeconds) : 0
        let unit = prepared.unit.isFinite ? min(1, max(0, prepared.unit)) : 0
        let freshness = ttl * (1 - 0.1 * unit)
        let expiresAt = now + freshness
        let staleUntil = expiresAt + staleSeconds
        let cost = max(0, prepared.cost) + CacheStore.entryOverheadBytes
        let lookup = CacheLookup(
            value: prepared.load.value, outcome: .miss, ageSeconds: 0,
            freshnessLeftSeconds: freshness, validator: prepared.validator)
        let keep = cost <= limits.maxBytes && limits.maxEntries > 0 && staleUntil > now

        if let slot = index[key] {
            guard keep else {
                remove(slot: slot, state: &state, evicted: false)
                return lookup
            }
            let i = Int(slot)
            let node = slots[i]!.node
            slots[i] = Entry(
                key: key, value: prepared.load.value, validator: prepared.validator, loadedAt: now,
                expiresAt: expiresAt, staleUntil: staleUntil, retryAt: now, node: node)
            counters.bytes += cost - state.nodes[Int(node)].cost
            state.reprice(node, cost: cost, deadline: staleUntil)
            state.touch(node)
        } else {
            guard keep else { return lookup }
            let slot: Int32
            if let reused = freeSlots.popLast() {
                slot = reused
            } else {
                slot = Int32(slots.count)
                slots.append(nil)
            }
            let node = state.allocate(namespace: id, slot: slot, cost: cost, deadline: staleUntil)
            slots[Int(slot)] = Entry(
                key: key, value: prepared.load.value, validator: prepared.validator, loadedAt: now,
                expiresAt: expiresAt, staleUntil: staleUntil, retryAt: now, node: node)
            index[key] = slot
            counters.entries += 1
            counters.bytes += cost
        }
        state.evictOverflow(limits)
        state.sweep(now: now, budget: 4)
        return lookup
    }

    func remove(slot: Int32, state: inout StoreState, evicted: Bool) {
        guard let entry = slots[Int(slot)] else { return }
        slots[Int(slot)] = nil
        index[entry.key] = nil
        freeSlots.append(slot)
        counters.entries -= 1
        counters.bytes -= state.nodes[Int(entry.node)].cost
        if evicted { counters.evictions += 1 }
        state.free(entry.node)
    }

    func removeAll(state: inout StoreState) {
        for slot in index.values {
            state.free(slots[Int(slot)]!.node)
        }
        index.removeAll()
        slots.removeAll()
        freeSlots.removeAll()
        counters.entries = 0
        counters.bytes = 0
    }
}
