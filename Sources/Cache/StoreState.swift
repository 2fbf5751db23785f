/// One stored entry's place in the store-wide recency list and memory budget. Nodes live in a
/// flat array and link by index, so the list costs no allocation per entry and every operation
/// (touch, insert, unlink) is O(1).
@usableFromInline
struct LRUNode {
    @usableFromInline var prev: Int32
    @usableFromInline var next: Int32
    /// Index of the owning namespace table in `StoreState.tables`; -1 while the node is free.
    @usableFromInline var namespace: Int32
    /// The entry's slot inside its namespace table.
    @usableFromInline var slot: Int32
    /// Bytes charged for the entry (value cost + `CacheStore.entryOverheadBytes`).
    @usableFromInline var cost: Int
    /// End of the stale window: past it the entry can never be served and may be reclaimed.
    @usableFromInline var deadline: Double

    @inlinable
    init(prev: Int32, next: Int32, namespace: Int32, slot: Int32, cost: Int, deadline: Double) {
        (self.prev, self.next, self.namespace, self.slot, self.cost, self.deadline) = (prev, next, namespace, slot, cost, deadline)
    }
}

/// Everything the store's mutex protects: the recency list across all namespaces, the totals
/// the limits apply to, and the namespace tables themselves.
@usableFromInline
struct StoreState {
    @usableFromInline var nodes: [LRUNode] = []
    /// Free nodes chain through `next`.
    @usableFromInline var freeHead: Int32 = -1
    /// Most recently used.
    @usableFromInline var head: Int32 = -1
    /// Least recently used: the next to be evicted.
    @usableFromInline var tail: Int32 = -1
    @usableFromInline var entries = 0
    @usableFromInline var bytes = 0
    /// Position of the incremental expiry sweep over `nodes`.
    @usableFromInline var sweepCursor = 0
    @usableFromInline var tables: [any NamespaceStorage] = []
    @usableFromInline var tableIndex: [String: Int32] = [:]
    /// Tables whose namespaces go through the shared layer (resynchronized after a gap).
    @usableFromInline var sharedTables: [Int32] = []

    @usableFromInline
    init() {}

    /// Takes a free node (or grows the array), charges its cost, and makes it most recent.
    @inlinable
    mutating func allocate(namespace: Int32, slot: Int32, cost: Int, deadline: Double) -> Int32 {
        let node = LRUNode(prev: -1, next: head, namespace: namespace, slot: slot, cost: cost, deadline: deadline)
        let index: Int32
        if freeHead >= 0 {
            index = freeHead
            freeHead = nodes[Int(index)].next
            nodes[Int(index)] = node
        } else {
            index = Int32(nodes.count)
            nodes.append(node)
        }
        if head >= 0 { nodes[Int(head)].prev = index }
        head = index
        if tail < 0 { tail = index }
        entries += 1
        bytes += cost
        return index
    }

    /// Unlinks the node, refunds its cost and puts it on the free chain.
    @inlinable
    mutating func free(_ index: Int32) {
        unlink(index)
        let i = Int(index)
        entries -= 1
        bytes -= nodes[i].cost
        nodes[i] = LRUNode(prev: -1, next: freeHead, namespace: -1, slot: -1, cost: 0, deadline: 0)
        freeHead = index
    }

    /// Marks the node most recently used.
    @inlinable
    mutating func touch(_ index: Int32) {
        guard head != index else { return }
        unlink(index)
        let i = Int(index)
        nodes[i].prev = -1
        nodes[i].next = head
        if head >= 0 { nodes[Int(head)].prev = index }
        head = index
        if tail < 0 { tail = index }
    }

    /// Re-prices an entry whose value was replaced in place.
    @inlinable
    mutating func reprice(_ index: Int32, cost: Int, deadline: Double) {
        let i = Int(index)
        bytes += cost - nodes[i].cost
        nodes[i].cost = cost
        nodes[i].deadline = deadline
    }

    @inlinable
    mutating func unlink(_ index: Int32) {
        let i = Int(index)
        let prev = nodes[i].prev
        let next = nodes[i].next
        if prev >= 0 { nodes[Int(prev)].next = next } else { head = next }
        if next >= 0 { nodes[Int(next)].prev = prev } else { tail = prev }
    }

    /// Drops least recently used entries, in any namespace, until both limits hold.
    @inlinable
    mutating func evictOverflow(_ limits: CacheLimits) {
        while (entries > limits.maxEntries || bytes > limits.maxBytes), tail >= 0 {
            let node = nodes[Int(tail)]
            tables[Int(node.namespace)].remove(slot: node.slot, state: &self, evicted: true)
        }
    }

    /// Reclaims dead entries (past their stale window) among the next `budget` nodes of a
    /// round-robin cursor: amortised O(1) per store, and every dead entry is found within
    /// `nodes.count / budget` stores, with no full scan on the hot path.
    @inlinable
    mutating func sweep(now: Double, budget: Int) {
        for _ in 0..<min(budget, nodes.count) {
            sweepCursor = sweepCursor + 1 < nodes.count ? sweepCursor + 1 : 0
            let node = nodes[sweepCursor]
            if node.namespace >= 0, node.deadline <= now {
                tables[Int(node.namespace)].remove(slot: node.slot, state: &self, evicted: false)
            }
        }
    }
}
