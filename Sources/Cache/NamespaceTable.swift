/// The typed entries of one namespace: key → slot index, slots as parallel flat arrays (no
/// object per entry; the plain-data times apart from keys, values and validators), and the
/// loads in flight. Budget and recency live in `StoreState`, shared by all
/// namespaces.
@usableFromInline
final class NamespaceTable<Key: Hashable & Sendable, Value: CacheValue>: NamespaceStorage, @unchecked Sendable {
    // @unchecked: every field is read and written only while holding CacheStore's mutex.

    /// What a lookup decided, acted on after the lock is released.
    @usableFromInline
    enum Decision: Sendable {
        /// Serve this now; when `refresh` is set, launch it as a background refresh.
        case served(CacheLookup<Value>, refresh: Flight<Value>?)
        /// Nothing servable and no waiter to register (fast path only).
        case absent
        /// The waiter joined a load already in flight, as a follower.
        case joined
        /// The waiter started a new foreground load, and leads it: launch it.
        case started(Flight<Value>)
        /// The caller's task was already cancelled.
        case cancelled
    }

    @usableFromInline let id: Int32
    // Exclusivity is unchecked at run time: every access happens under CacheStore's mutex and
    // no access to these arrays overlaps another (each call completes before the next).
    @exclusivity(unchecked) @usableFromInline var index: [Key: Int32] = [:]
    @exclusivity(unchecked) @usableFromInline var times: ContiguousArray<EntryTimes> = []
    @exclusivity(unchecked) @usableFromInline var keys: ContiguousArray<Key?> = []
    @exclusivity(unchecked) @usableFromInline var values: ContiguousArray<Value?> = []
    @exclusivity(unchecked) @usableFromInline var validators: ContiguousArray<String> = []
    @usableFromInline var freeSlots: [Int32] = []
    @usableFromInline var flights: [Key: Flight<Value>] = [:]
    @exclusivity(unchecked) @usableFromInline var counters = CacheStats()
    /// One read replica per server event loop (`LoopReplica`): `replicas[LoopShard.current - 1]`.
    /// Each has its own mutex; the store's code below takes them only while holding its own.
    @usableFromInline let replicas: [LoopReplica<Key, Value>]

    /// - Parameter replicaCapacity: at most this many entries in each loop's replica.
    @usableFromInline
    init(id: Int32, loops: Int, replicaCapacity: Int) {
        self.id = id
        replicas = (0..<loops).map { _ in LoopReplica(capacity: replicaCapacity) }
    }

    /// The counters with every loop replica's hits added in.
    @usableFromInline var statistics: CacheStats {
        var statistics = counters
        for replica in replicas { statistics.hits &+= replica.hits }
        return statistics
    }

    // MARK: Lookups

    /// A fresh entry, counted as a hit and made most recent; nil (nothing counted) otherwise.
    @inlinable
    func fresh(_ key: Key, now: Double, state: inout StoreState) -> CacheLookup<Value>? {
        guard let slot = index[key], let value = values[Int(slot)] else { return nil }
        let entry = times[Int(slot)]
        guard now < entry.expiresAt else { return nil }
        counters.hits += 1
        state.touch(entry.node)
        return lookup(value, Int(slot), entry, outcome: .hit, now: now)
    }

    /// `fresh(_:)` for an event loop whose replica has no entry for `key`: applies the uses
    /// that replica noted, then answers as `fresh(_:)` and copies a fresh entry into the
    /// replica (under the store's lock, so no change can come between the read and the copy).
    @inlinable
    func fresh(_ key: Key, now: Double, replica: LoopReplica<Key, Value>, state: inout StoreState) -> CacheLookup<Value>? {
        applyUses(replica.takeTouched(), state: &state)
        guard let slot = index[key], let value = values[Int(slot)] else { return nil }
        let i = Int(slot)
        let entry = times[i]
        guard now < entry.expiresAt else { return nil }
        counters.hits += 1
        state.touch(entry.node)
        replica.insert(key, LoopReplica.Entry(
            value: value, validator: validators[i], loadedAt: entry.loadedAt, expiresAt: entry.expiresAt))
        return lookup(value, i, entry, outcome: .hit, now: now)
    }

    /// Makes each key still stored most recently used, in order (uses noted by a replica).
    @usableFromInline
    func applyUses(_ keys: [Key], state: inout StoreState) {
        for key in keys {
            if let slot = index[key] { state.touch(times[Int(slot)].node) }
        }
    }

    /// Every replicated entry the store does not hold exactly as replicated (same validator and
    /// times): a replica must never serve what the store would not.
    @usableFromInline func replicaViolations() -> [String] {
        var problems: [String] = []
        for (loop, replica) in replicas.enumerated() {
            for (key, entry) in replica.snapshot {
                guard let slot = index[key], values[Int(slot)] != nil else {
                    problems.append("namespace \(id), loop \(loop + 1): replica holds \(key), the store does not")
                    continue
                }
                let times = times[Int(slot)]
                if validators[Int(slot)] != entry.validator || times.loadedAt != entry.loadedAt
                    || times.expiresAt != entry.expiresAt {
                    problems.append("namespace \(id), loop \(loop + 1): replica's \(key) differs from the store's")
                }
            }
        }
        return problems
    }

    /// Applies every loop replica's noted uses (before an eviction decides by recency).
    @usableFromInline
    func applyReplicaUses(state: inout StoreState) {
        for replica in replicas { applyUses(replica.takeTouched(), state: &state) }
    }

    /// Classifies `key` at `now`. Fresh → hit; within the stale window → stale plus, when none
    /// is in flight and retry backoff allows, a new background refresh; otherwise a miss that
    /// joins or starts the key's single flight (only when `waiter` is given).
    @inlinable
    func decide(
        _ key: Key, now: Double, waiter: (id: UInt64, continuation: Flight<Value>.Continuation)?,
        state: inout StoreState
    ) -> Decision {
        if let slot = index[key], let value = values[Int(slot)] {
            let i = Int(slot)
            let entry = times[i]
            if now < entry.expiresAt {
                counters.hits += 1
                state.touch(entry.node)
                return .served(lookup(value, i, entry, outcome: .hit, now: now), refresh: nil)
            }
            if now < entry.staleUntil {
                counters.stale += 1
                state.touch(entry.node)
                var refresh: Flight<Value>?
                if flights[key] == nil, now >= entry.retryAt {
                    let flight = Flight<Value>(background: true)
                    flights[key] = flight
                    counters.loadsInFlight += 1
                    refresh = flight
                }
                return .served(lookup(value, i, entry, outcome: .stale, now: now), refresh: refresh)
            }
            remove(slot: slot, state: &state, evicted: false)
        }
        guard let waiter else { return .absent }
        counters.misses += 1
        if let flight = flights[key] {
            flight.waiters.append(waiter)
            return .joined
        }
        let flight = Flight<Value>(background: false, leader: waiter.id)
        flight.waiters.append(waiter)
        flights[key] = flight
        counters.loadsInFlight += 1
        return .started(flight)
    }

    /// The lookup of slot `i`, whose value the caller has read (an indexed slot always holds
    /// one; reading it as an optional keeps even a broken invariant from trapping: the key is
    /// then treated as absent).
    @inlinable
    func lookup(_ value: Value, _ i: Int, _ entry: EntryTimes, outcome: CacheOutcome, now: Double) -> CacheLookup<Value> {
        CacheLookup(
            value: value, outcome: outcome, ageSeconds: max(0, now - entry.loadedAt),
            freshnessLeftSeconds: max(0, entry.expiresAt - now), validator: validators[i])
    }

    // MARK: Waiters and flights

    /// Removes a cancelled waiter. Returns its continuation (to resume with CancellationError)
    /// and, when it was the last waiter of a foreground load, that load's task to cancel.
    @inlinable
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
    /// waiters to resume (each with whether it was a follower) and the lookup they get.
    @inlinable
    func finish(
        _ flight: Flight<Value>, key: Key, prepared: PreparedValue<Value>?, now: Double,
        limits: CacheLimits, retrySeconds: Double, state: inout StoreState
    ) -> (waiters: [(continuation: Flight<Value>.Continuation, collapsed: Bool)], lookup: CacheLookup<Value>?) {
        counters.loadsInFlight -= 1
        if flights[key] === flight { flights[key] = nil }
        let waiters = flight.waiters.map { (continuation: $0.continuation, collapsed: flight.collapsed($0.id)) }
        flight.waiters = []
        flight.task = nil
        guard let prepared else {
            if flight.background, let slot = index[key] {
                times[Int(slot)].retryAt = now + retrySeconds
            }
            return (waiters, nil)
        }
        let lookup = store(key, prepared, now: now, limits: limits, state: &state)
        return (waiters, lookup)
    }

    // MARK: Storage

    /// Stores a flight's value with its planned times, then restores the limits (LRU eviction)
    /// and sweeps a few dead entries. A value that could never fit (cost over `maxBytes`), or
    /// that is already past its stale window, is returned but not kept; any older entry for the
    /// key goes with it, since it is no longer the newest answer.
    @inlinable
    func store(
        _ key: Key, _ prepared: PreparedValue<Value>, now: Double, limits: CacheLimits, state: inout StoreState
    ) -> CacheLookup<Value> {
        let (loadedAt, expiresAt, staleUntil) = (prepared.loadedAt, prepared.expiresAt, prepared.staleUntil)
        let cost = max(0, prepared.cost) + CacheStore.entryOverheadBytes
        let lookup = CacheLookup(
            value: prepared.value, outcome: prepared.outcome, ageSeconds: max(0, now - loadedAt),
            freshnessLeftSeconds: max(0, expiresAt - now), validator: prepared.validator, source: prepared.source)
        let keep = cost <= limits.maxBytes && limits.maxEntries > 0 && staleUntil > now
        // Recency must include the loops' replica hits before this store can evict anything.
        if keep, state.entries + 1 > limits.maxEntries || state.bytes + cost > limits.maxBytes {
            for table in state.tables { table.applyReplicaUses(state: &state) }
        }

        if let slot = index[key] {
            guard keep else {
                remove(slot: slot, state: &state, evicted: false)
                return lookup
            }
            let i = Int(slot)
            for replica in replicas { replica.remove(key) }
            let node = times[i].node
            times[i] = EntryTimes(loadedAt: loadedAt, expiresAt: expiresAt, staleUntil: staleUntil, retryAt: now, node: node)
            values[i] = prepared.value
            validators[i] = prepared.validator
            counters.bytes += cost - state.nodes[Int(node)].cost
            state.reprice(node, cost: cost, deadline: staleUntil)
            state.touch(node)
        } else {
            guard keep else { return lookup }
            let slot: Int32
            if let reused = freeSlots.popLast() {
                slot = reused
            } else {
                slot = Int32(times.count)
                times.append(.vacant)
                keys.append(nil)
                values.append(nil)
                validators.append("")
            }
            let i = Int(slot)
            let node = state.allocate(namespace: id, slot: slot, cost: cost, deadline: staleUntil)
            times[i] = EntryTimes(loadedAt: loadedAt, expiresAt: expiresAt, staleUntil: staleUntil, retryAt: now, node: node)
            keys[i] = key
            values[i] = prepared.value
            validators[i] = prepared.validator
            index[key] = slot
            counters.entries += 1
            counters.bytes += cost
        }
        state.evictOverflow(limits)
        state.sweep(now: now, budget: 4)
        return lookup
    }

    @inlinable
    func remove(slot: Int32, state: inout StoreState, evicted: Bool) {
        let i = Int(slot)
        guard let key = keys[i] else { return }
        for replica in replicas { replica.remove(key) }
        let node = times[i].node
        index[key] = nil
        keys[i] = nil
        values[i] = nil
        validators[i] = ""
        times[i] = .vacant
        freeSlots.append(slot)
        counters.entries -= 1
        counters.bytes -= state.nodes[Int(node)].cost
        if evicted { counters.evictions += 1 }
        state.free(node)
    }

    @usableFromInline
    func expireAll(now: Double) {
        for replica in replicas { replica.removeAll() }
        for slot in index.values {
            let i = Int(slot)
            times[i].expiresAt = min(times[i].expiresAt, now)
            times[i].retryAt = min(times[i].retryAt, now)
        }
    }

    @inlinable
    func removeAll(state: inout StoreState) {
        for replica in replicas { replica.removeAll() }
        for slot in index.values {
            state.free(times[Int(slot)].node)
        }
        index.removeAll()
        times.removeAll()
        keys.removeAll()
        values.removeAll()
        validators.removeAll()
        freeSlots.removeAll()
        counters.entries = 0
        counters.bytes = 0
    }
}
