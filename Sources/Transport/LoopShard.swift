import CLoopShard
import Synchronization

/// Which per-loop shard the calling thread should count into: the index of the `EventLoop`
/// running on it (numbered as loops are made), or the shared shard 0 off any loop (a task, a
/// test thread). Counters hot on a cached hit (the app's request counts and latency
/// histograms) keep one copy per shard and sum them when read, so two loops never write the
/// same cache line or take the same lock on a hit.
public enum LoopShard {
    /// Shards a sharded counter keeps: one for work off the loops, then one per loop (loops
    /// beyond that share, round-robin; a server runs one loop per core).
    public static let count = 9

    /// The calling thread's shard, in `0..<count`: one load of a C thread-local
    /// (`CLoopShard`'s `almanac_loop_shard`, defined once for the whole program).
    public static var current: Int { almanac_loop_shard_get() }

    /// Marks the calling thread as the `loopIndex`th event loop's (called once by the loop).
    static func enter(loopIndex: Int) {
        almanac_loop_shard_set(1 + loopIndex % (count - 1))
    }

    /// The next loop's index.
    static func nextLoopIndex() -> Int {
        loopsMade.add(1, ordering: .relaxed).oldValue
    }

    private static let loopsMade = Atomic<Int>(0)
}
