/// A full consistency check of the store's structures, for tests (O(entries); never on the
/// hot path).
extension CacheStore {
    /// Describes every broken invariant: the recency list must link exactly the live nodes both
    /// ways, totals must equal the sum over entries, each namespace's counters must equal the
    /// sum over its entries, both limits must hold, and every event loop's replica must hold
    /// only entries the store holds, as it holds them. Empty when all is well.
    func auditViolations() -> [String] {
        state.withLock { state in
            var problems: [String] = []
            var count = 0
            var bytes = 0
            var perNamespace = Array(repeating: (entries: 0, bytes: 0), count: state.tables.count)
            var previous: Int32 = -1
            var cursor = state.head
            while cursor >= 0 {
                let node = state.nodes[Int(cursor)]
                if node.prev != previous { problems.append("node \(cursor): prev \(node.prev) != \(previous)") }
                if node.namespace < 0 { problems.append("node \(cursor) is free but linked") }
                count += 1
                bytes += node.cost
                if node.namespace >= 0 {
                    perNamespace[Int(node.namespace)].entries += 1
                    perNamespace[Int(node.namespace)].bytes += node.cost
                }
                previous = cursor
                cursor = node.next
                if count > state.nodes.count { problems.append("cycle in recency list"); break }
            }
            if state.tail != previous { problems.append("tail \(state.tail) != last linked \(previous)") }
            let live = state.nodes.filter { $0.namespace >= 0 }.count
            if live != count { problems.append("\(live) live nodes but \(count) linked") }
            if count != state.entries { problems.append("entries \(state.entries) != linked \(count)") }
            if bytes != state.bytes { problems.append("bytes \(state.bytes) != sum \(bytes)") }
            for (id, table) in state.tables.enumerated() {
                let counters = table.statistics
                if counters.entries != perNamespace[id].entries || counters.bytes != perNamespace[id].bytes {
                    problems.append("namespace \(id): counters \(counters.entries)/\(counters.bytes) != \(perNamespace[id])")
                }
                if counters.loadsInFlight < 0 { problems.append("namespace \(id): loadsInFlight < 0") }
                problems += table.replicaViolations()
            }
            if state.entries > limits.maxEntries { problems.append("entries \(state.entries) > maxEntries") }
            if state.bytes > limits.maxBytes { problems.append("bytes \(state.bytes) > maxBytes") }
            return problems
        }
    }
}
