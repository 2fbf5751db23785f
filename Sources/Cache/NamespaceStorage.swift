/// What the store needs from a namespace table without knowing its key and value types.
@usableFromInline
protocol NamespaceStorage: AnyObject {
    /// Removes the entry in `slot` (if any), refunding its node.
    func remove(slot: Int32, state: inout StoreState, evicted: Bool)
    /// Removes every entry of this namespace.
    func removeAll(state: inout StoreState)
    /// Ends the freshness of every entry at `now`, keeping each stale window (see
    /// `CacheStore.resynchronizeShared`).
    func expireAll(now: Double)
    /// Applies every loop replica's noted uses to the recency list (`LoopReplica`).
    func applyReplicaUses(state: inout StoreState)
    /// The namespace's counters, its loop replicas' hits included.
    var statistics: CacheStats { get }
    /// Replicated entries that differ from the store's (for `auditViolations()`).
    func replicaViolations() -> [String]
}
