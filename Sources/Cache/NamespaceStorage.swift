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
    var counters: CacheStats { get }
}
