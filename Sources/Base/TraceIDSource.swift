import Synchronization

/// Fresh trace and span ids, cheaply: a request without a `traceparent` needs a new trace id,
/// and every request a span id of its own, possibly on every cached hit that writes an access
/// line.
///
/// Each id is a counter (one relaxed atomic increment) run through the SplitMix64 finalizer,
/// a bijection of 64-bit integers, from a start chosen at random per process: ids are unique
/// within a run (until 2^64 of them), look random, and need neither a system call nor an
/// allocation. They are identifiers, not secrets: nothing relies on them being unguessable.
public enum TraceIDSource {
    private static let counter = Atomic<UInt64>(0)
    private static let start = UInt64.random(in: 0...UInt64.max)

    /// A new non-zero 64-bit id (a span id).
    public static func next() -> UInt64 {
        id(at: counter.add(1, ordering: .relaxed).newValue)
    }

    /// The three ids of a new trace (trace id high and low halves, span id) for one atomic
    /// increment instead of three.
    public static func nextTrace() -> (traceIDHigh: UInt64, traceIDLow: UInt64, spanID: UInt64) {
        let n = counter.add(3, ordering: .relaxed).newValue
        return (id(at: n &- 2), id(at: n &- 1), id(at: n))
    }

    /// The id of counter value `n` (never zero: the one value that mixes to zero becomes 1).
    @inline(__always)
    static func id(at n: UInt64) -> UInt64 {
        let id = mix(start &+ n &* 0x9E37_79B9_7F4A_7C15)
        return id == 0 ? 1 : id
    }

    /// SplitMix64's output function.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
