import Synchronization
import Transport

/// One copy of some state per server event loop (`LoopShard`), plus one shared by everything
/// off the loops: what a cached hit must touch without sharing a lock or a written cache line
/// with another loop (a memo of rendered bodies, say). Each copy has its own mutex, taken only
/// by its loop on a hit (uncontended), and its own cache lines; readers that need the whole
/// (counts, tests) visit every copy.
public final class LoopLocal<State: Sendable>: Sendable {
    /// One loop's copy, padded so that two copies (allocated one after the other) never share
    /// a cache line, even with 128-byte prefetch pairs.
    public final class Copy: Sendable {
        /// This copy's state and its own mutex.
        public let state: Mutex<State>
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                              UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        init(_ state: sending State) { self.state = Mutex(state) }
    }

    @usableFromInline let copies: [Copy]

    /// - Parameter make: builds each copy's initial state (called `LoopShard.count` times).
    public init(_ make: () -> State) {
        copies = (0..<LoopShard.count).map { _ in Copy(make()) }
    }

    /// The calling thread's copy (its event loop's, or the shared one off the loops). Callers
    /// lock its `state` themselves, so the critical section is compiled for their state type.
    @inlinable
    public var current: Copy { copies[LoopShard.current] }

    /// Runs `body` on every copy in turn, each under its own mutex.
    public func forEach(_ body: (inout State) -> Void) {
        for copy in copies { copy.state.withLock { body(&$0) } }
    }
}
