/// Decides how many of the server's event loops take new connections ("active" loops), from
/// what each loop's thread and the machine did over the last sampling window. Pure: fed
/// samples, it answers with the active count and, when connections should move, how many
/// each loop should let go (`LoopGovernor.Outcome.shed`). `LoopGovernance` samples and applies.
///
/// Why: a loop that sleeps in `epoll_wait` between requests pays a wake-up and a context switch
/// to get going again, and with every loop taking an equal share of the connections, light
/// load keeps every loop half asleep: on the project's 2-core machine, a second loop serving
/// 50 busy connections made each hit cost 7.6 µs of CPU instead of 6.9 µs on one loop, with
/// fewer requests served (docs/evidence.md). So connections are packed onto as few loops as
/// carry the load, and another loop is taken on only when it can help: the active loops are
/// all nearly always busy *and* the machine has a processor to spare for one more (a loop that
/// would only take turns on the same processors adds switches, not throughput). Loops are let
/// go again after the load has stayed well below what one fewer could carry.
///
/// The active set only steers where *new* connections go (`LoopPlacement`). Keep-alive
/// connections opened in a burst while the server was idle would otherwise stay packed on one
/// loop however busy they later get, so when the active set grows, or the active loops stay
/// unevenly busy, the loops with more than their share let some connections go: each is
/// answered once more with `Connection: close`, and the client's reconnection is placed anew.
/// Nothing is cut: the close comes with a complete response, as `keepalive_requests` does in
/// nginx.
public struct LoopGovernor: Sendable, Equatable {
    /// What the loops and the machine did over one window.
    public struct Sample: Sendable, Equatable {
        /// The window's length (wall clock).
        public var windowNanoseconds: UInt64
        /// CPU time each loop's thread used in the window, by loop index (all loops).
        public var loopBusyNanoseconds: [UInt64]
        /// Idle processor time in the window, summed over the machine's processors (`/proc/stat`
        /// idle + iowait); nil when unknown, which counts as room to spare.
        public var idleProcessorNanoseconds: UInt64?
        /// Open connections on each loop, by loop index.
        public var connections: [Int]

        public init(windowNanoseconds: UInt64, loopBusyNanoseconds: [UInt64],
                    idleProcessorNanoseconds: UInt64?, connections: [Int]) {
            self.windowNanoseconds = windowNanoseconds
            self.loopBusyNanoseconds = loopBusyNanoseconds
            self.idleProcessorNanoseconds = idleProcessorNanoseconds
            self.connections = connections
        }
    }

    /// What to do after a sample.
    public struct Outcome: Sendable, Equatable {
        /// Loops `0..<active` take new connections.
        public var active: Int
        /// Connections each loop should let go (by loop index; empty when none).
        public var shed: [Int]
    }

    /// A loop this busy (fraction of the window on its thread's CPU clock) has no room left.
    public static let busyFraction = 0.85
    /// At most this busy, a loop has room for more.
    public static let roomFraction = 0.5
    /// A processor at least this idle (fraction of one) over the window is there for another
    /// loop: half a processor is half a loop's throughput more.
    public static let spareProcessorFraction = 0.5
    /// Windows in a row that must agree before a loop is taken on or the loops are evened out:
    /// a burst shorter than this is not load.
    public static let windowsToGrow = 2
    /// Windows in a row of light load before a loop is let go: slow to shrink, so a load that
    /// pauses does not make the set swing.
    public static let windowsToShrink = 8
    /// Below this, the active loops' busy fractions, summed, fit on one fewer loop.
    public static let shrinkFraction = 0.5

    public let loopCount: Int
    public private(set) var active: Int
    private var growStreak = 0
    private var shrinkStreak = 0
    private var unevenStreak = 0

    /// Starts with one active loop (`loopCount` ≥ 1).
    public init(loopCount: Int) {
        self.loopCount = max(1, loopCount)
        self.active = 1
    }

    public mutating func observe(_ sample: Sample) -> Outcome {
        guard loopCount > 1, sample.windowNanoseconds > 0,
              sample.loopBusyNanoseconds.count == loopCount, sample.connections.count == loopCount else {
            return Outcome(active: active, shed: [])
        }
        let window = Double(sample.windowNanoseconds)
        let busy = sample.loopBusyNanoseconds[0..<active].map { Double($0) / window }
        let spare = sample.idleProcessorNanoseconds.map { Double($0) / window } ?? Double(loopCount)
        let saturated = busy.reduce(0, +) / Double(active) >= Self.busyFraction
        let roomForAnother = spare >= Self.spareProcessorFraction

        growStreak = active < loopCount && saturated && roomForAnother ? growStreak + 1 : 0
        shrinkStreak = active > 1 && busy.reduce(0, +) <= Self.shrinkFraction * Double(active - 1) ? shrinkStreak + 1 : 0
        let uneven = active > 1 && (busy.max() ?? 0) >= Self.busyFraction && (busy.min() ?? 0) <= Self.roomFraction
        unevenStreak = uneven ? unevenStreak + 1 : 0

        if growStreak >= Self.windowsToGrow {
            active += 1
            resetStreaks()
            return Outcome(active: active, shed: Self.evenOut(sample.connections, active: active))
        }
        if shrinkStreak >= Self.windowsToShrink {
            active -= 1
            resetStreaks()
            return Outcome(active: active, shed: [])
        }
        if unevenStreak >= Self.windowsToGrow {
            unevenStreak = 0
            let shed = Self.evenOut(sample.connections, active: active)
            return Outcome(active: active, shed: shed)
        }
        return Outcome(active: active, shed: [])
    }

    private mutating func resetStreaks() {
        growStreak = 0
        shrinkStreak = 0
        unevenStreak = 0
    }

    /// How many connections each active loop above an even share should let go so that the
    /// active loops end up with about the same number; empty when none is above.
    static func evenOut(_ connections: [Int], active: Int) -> [Int] {
        let total = connections[0..<active].reduce(0, +)
        let share = (total + active - 1) / active
        var shed = connections.indices.map { $0 < active ? max(0, connections[$0] - share) : 0 }
        if shed.allSatisfy({ $0 == 0 }) { shed = [] }
        return shed
    }
}
