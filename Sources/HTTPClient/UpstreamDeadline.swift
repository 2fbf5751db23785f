import Base

/// When an upstream call must be over: a reading of the clock that set it, carried with that
/// clock. Whoever sets the deadline (the provider chain, on the steward's clock; a client on
/// its own) chooses the clock, and everything downstream (the steward's gate, the retry loop's
/// waits, the time left handed to libcurl) reads time through it: one source per call, so a
/// test's manual clock decides every deadline and wait of it, never the real time a busy
/// machine takes.
public struct UpstreamDeadline: Sendable {
    public let clock: any MonotonicClock
    /// The deadline, in `clock`'s seconds.
    public let seconds: Double

    public init(clock: any MonotonicClock, at seconds: Double) {
        self.clock = clock
        self.seconds = seconds
    }

    /// `milliseconds` from now on `clock` (at least 1).
    public init(clock: any MonotonicClock, afterMilliseconds milliseconds: Int) {
        self.init(clock: clock, at: clock.now() + Double(max(1, milliseconds)) / 1000)
    }

    /// Seconds left (negative once passed).
    public var remainingSeconds: Double { seconds - clock.now() }

    /// The sooner of the two. Both must be readings of the same clock (a deadline narrowed by
    /// the one it was cut from); the result keeps this one's clock.
    public func earlier(_ other: UpstreamDeadline) -> UpstreamDeadline {
        UpstreamDeadline(clock: clock, at: min(seconds, other.seconds))
    }
}
