/// The production `MonotonicClock`: the process's monotonic clock (`ContinuousClock`, immune to
/// wall-clock steps), in seconds since the process first read it; waits are `Task.sleep`.
/// One of the few places that read real time (the clock-source guard test names them).
public struct SystemClock: MonotonicClock {
    public init() {}

    public func now() -> Double {
        let (seconds, attoseconds) = (ContinuousClock.now - SystemClockOrigin.instant).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    public func sleep(until deadline: Double) async throws {
        let left = deadline - now()
        guard left > 0 else { return try Task.checkCancellation() }
        // A year at most: a wait longer than any configured bound is a caller's mistake, and
        // nanoseconds past Int64 would trap.
        try await Task.sleep(for: .nanoseconds(Int64(min(left, 31_536_000) * 1e9)))
    }
}

/// The instant `SystemClock` counts from: the first reading in the process.
private enum SystemClockOrigin {
    static let instant = ContinuousClock.now
}
