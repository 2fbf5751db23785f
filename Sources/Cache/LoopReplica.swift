import Synchronization

/// One event loop's read replica of a namespace's fresh entries: what lets a cached hit on a
/// loop take no lock and write no cache line that another loop uses.
///
/// Every server event loop (`LoopShard`) gets its own replica per namespace. A hit on a loop
/// looks here first, under this replica's own mutex, which only that loop takes on a hit
/// (uncontended: an atomic on a line no other loop writes). A replica miss goes to the store
/// under its mutex, as every hit used to, and copies a fresh entry it finds into the replica.
///
/// Exactness is kept by the store, not by the reader: every change that could make a
/// replicated entry wrong (the key's value replaced, the entry removed, purged, evicted or
/// expired early by a shared-layer resynchronization) happens under the store's mutex and
/// removes the key from every replica there and then (store lock, then replica lock; a hit
/// never takes the store's lock while holding its replica's, so the order cannot invert). An
/// entry is copied into a replica under the store's lock too, so no change can slip between
/// the read and the copy. A replica therefore only ever holds entries the store holds, with
/// the same value, validator and times, and serves them only while `now < expiresAt`, exactly
/// as the store would; stale and missing keys always go to the store (single flight,
/// stale-while-revalidate, shared layer).
///
/// What a replica hit would have written to the store is kept here instead: its hit count
/// (summed into the namespace's stats when read) and the fact that the entry was used, as a
/// list of keys touched since the store last heard (each key once). The store applies those
/// uses to its recency list whenever this loop next takes its lock, and from every replica
/// before an insertion that must evict, so least-recently-used eviction still sees replica
/// hits (in first-use order per loop, rather than last-use order).
///
/// Bounded: at most `capacity` entries (a replica that is full is emptied before the next
/// copy, as the rates render memo does). It holds references to values the store holds, never
/// one the store dropped, so it adds a dictionary slot per replicated entry and no payload.
@usableFromInline
final class LoopReplica<Key: Hashable & Sendable, Value: CacheValue>: Sendable {
    /// A replicated fresh entry: what a lookup returns, and whether its use is still to be
    /// told to the store.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var value: Value
        @usableFromInline var validator: String
        @usableFromInline var loadedAt: Double
        @usableFromInline var expiresAt: Double
        @usableFromInline var touched: Bool

        @usableFromInline
        init(value: Value, validator: String, loadedAt: Double, expiresAt: Double) {
            (self.value, self.validator, self.loadedAt, self.expiresAt, self.touched) =
                (value, validator, loadedAt, expiresAt, false)
        }
    }

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var entries: [Key: Entry] = [:]
        /// Keys hit here since the store last applied this replica's uses, in first-use order.
        @usableFromInline var touched: [Key] = []
        /// Hits served here (never reset: the namespace's `hits` counter is their sum plus its own).
        @usableFromInline var hits: UInt64 = 0
        /// The key last served and where its entry lies in `entries`, checked before hashing
        /// the key (a loop usually asks for one key over and over, and comparing it costs a
        /// fraction of hashing it). Dropped by everything but a hit (insertion, removal, the
        /// store's visits), so the position is always the key's in this very dictionary, and
        /// the entry is then read in place exactly as a lookup by hash would read it.
        @usableFromInline var lastKey: Key?
        @usableFromInline var lastPosition: Dictionary<Key, Entry>.Index?

        @usableFromInline init() {}

        /// Drops the last-served slot (before any change to the dictionary's layout).
        @usableFromInline
        mutating func forgetLast() {
            lastKey = nil
            lastPosition = nil
        }
    }

    @usableFromInline let state = Mutex(State())
    let capacity: Int
    /// Room after the mutex and its state, so that two loops' replicas (allocated one after
    /// the other) never share a cache line, even with 128-byte prefetch pairs.
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                          UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The fresh entry for `key`, counted as a hit here and its use noted; nil when this
    /// replica has none (an entry no longer fresh is dropped from the replica).
    @inlinable
    func hit(_ key: Key, now: Double) -> CacheLookup<Value>? {
        state.withLock { state -> CacheLookup<Value>? in
            let position: Dictionary<Key, Entry>.Index
            if let last = state.lastPosition, state.lastKey == key {
                position = last
            } else {
                guard let found = state.entries.index(forKey: key) else { return nil }
                position = found
                state.lastKey = key
                state.lastPosition = found
            }
            // The entry is read in place (the dictionary's `_modify`), never copied whole: only
            // the value and the validator are copied out, into the lookup.
            var firstUse = false
            guard LoopReplica.use(&state.entries.values[position], now: now, firstUse: &firstUse) else {
                state.forgetLast()
                state.entries.remove(at: position)
                return nil
            }
            state.hits &+= 1
            if firstUse { state.touched.append(key) }
            return LoopReplica.lookup(&state.entries.values[position], now: now)
        }
    }

    /// Whether `entry` is fresh at `now`; if so it is marked used (`firstUse`: it was not yet).
    @inlinable
    static func use(_ entry: inout Entry, now: Double, firstUse: inout Bool) -> Bool {
        guard now < entry.expiresAt else { return false }
        if !entry.touched {
            entry.touched = true
            firstUse = true
        }
        return true
    }

    /// The hit `entry` gives at `now` (inout only to read it in place).
    @inlinable
    static func lookup(_ entry: inout Entry, now: Double) -> CacheLookup<Value> {
        CacheLookup(
            value: entry.value, outcome: .hit, ageSeconds: max(0, now - entry.loadedAt),
            freshnessLeftSeconds: max(0, entry.expiresAt - now), validator: entry.validator)
    }

    // MARK: Called by the store, under its mutex

    /// Copies a fresh entry in (emptying a full replica first).
    @usableFromInline
    func insert(_ key: Key, _ entry: Entry) {
        state.withLock { state in
            if state.entries.count >= capacity, state.entries[key] == nil {
                state.entries.removeAll(keepingCapacity: true)
            }
            state.forgetLast()
            state.entries[key] = entry
        }
    }

    /// The keys used here since the last call, in first-use order (their uses are now the
    /// store's to apply).
    @usableFromInline
    func takeTouched() -> [Key] {
        state.withLock { state in
            guard !state.touched.isEmpty else { return [] }
            let touched = state.touched
            state.touched = []
            state.forgetLast()
            for key in touched {
                if let position = state.entries.index(forKey: key) { state.entries.values[position].touched = false }
            }
            return touched
        }
    }

    /// Forgets `key` (its entry changed or left the store).
    @usableFromInline
    func remove(_ key: Key) {
        state.withLock { state in
            guard !state.entries.isEmpty else { return }
            state.forgetLast()
            state.entries[key] = nil
        }
    }

    /// Forgets every entry (the namespace was purged, or its freshness ended early).
    @usableFromInline
    func removeAll() {
        state.withLock { state in
            state.forgetLast()
            state.entries.removeAll()
        }
    }

    /// Hits served here so far.
    var hits: UInt64 { state.withLock { $0.hits } }

    /// The replicated entries, for the store's audit.
    var snapshot: [Key: Entry] {
        state.withLock { state in
            state.forgetLast()
            return state.entries
        }
    }
}
