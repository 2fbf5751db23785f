/// When the server reclaims connections at its limit it says so, but at most once per
/// `interval` (10 s in the server): the first reclaim warns at once, later ones are counted
/// and reported with the next line that is due, so a sustained overload costs one log line
/// per interval rather than one per connection. (nginx logs "worker_connections are not
/// enough, reusing connections" in the same situation, at most once per second.)
///
/// Pure and clock-injected: `ReclaimWarningThrottleTests` drive it with a fake clock.
struct ReclaimWarningThrottle: Sendable {
    /// What the line that is due reports: reclaims since the previous line, this one included.
    struct Report: Equatable, Sendable {
        var idle = 0
        var silent = 0
    }

    let interval: UInt64
    private var lastWarning: UInt64?
    private var pending = Report()

    init(interval: UInt64) {
        self.interval = interval
    }

    /// Records one reclaim at `now` (monotonic ns); returns the counts when a line is due.
    mutating func record(_ state: ConnectionStateMachine.Reclaimable, now: UInt64) -> Report? {
        switch state {
        case .idle: pending.idle += 1
        case .silent: pending.silent += 1
        }
        if let lastWarning, now < lastWarning &+ interval { return nil }
        lastWarning = now
        defer { pending = Report() }
        return pending
    }
}
