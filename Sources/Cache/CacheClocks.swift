import Base
import Glibc
import Dispatch
import Transport

/// The production clock: monotonic seconds since boot, immune to wall-clock steps (NTP, DST),
/// so a TTL is never stretched or cut short by the system time changing.
public struct MonotonicCacheClock: CacheClock {
    public init() {}
    public func now() -> Double {
        Double(SystemFacts.monotonicNanoseconds()) / 1_000_000_000 // DispatchTime's uptime, read directly
    }
}

/// Tests drive the cache with the same manual clock as every other component (`ManualClock`,
/// module `Base`): one clock can be handed to a store, a steward and a client at once.
public typealias ManualCacheClock = ManualClock

extension ManualClock: CacheClock {}

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
