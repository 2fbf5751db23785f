import Glibc
import Dispatch
import Synchronization

/// The production clock: monotonic seconds since boot, immune to wall-clock steps (NTP, DST),
/// so a TTL is never stretched or cut short by the system time changing.
public struct MonotonicCacheClock: CacheClock {
    public init() {}
    public func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }
}

/// A clock that only moves when told to, so tests of expiry, stale windows and jitter are exact
/// and never sleep. Shared freely across tasks.
public final class ManualCacheClock: CacheClock {
    private let seconds: Mutex<Double>

    public init(start: Double = 1_000) {
        seconds = Mutex(start)
    }

    public func now() -> Double { seconds.withLock { $0 } }

    /// Moves time forward by `delta` seconds.
    public func advance(by delta: Double) {
        seconds.withLock { $0 += delta }
    }

    /// Jumps to an absolute reading (tests use it to land exactly on a boundary).
    public func set(_ value: Double) {
        seconds.withLock { $0 = value }
    }
}

/// Unix time in seconds from the system's real-time clock (the shared layer's envelopes are
/// wall-clock, unlike the monotonic times L1 decides on).
public struct UnixCacheClock: CacheClock {
    public init() {}
    public func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
