import Glibc

/// What the layers above ask of the machine and the process, once, without each importing Glibc.
public enum SystemFacts {
    /// Processors online now (at least 1): the default number of connection loops.
    public static var onlineProcessorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The monotonic clock in nanoseconds: the same clock and origin as
    /// `DispatchTime.now().uptimeNanoseconds` (`CLOCK_MONOTONIC` on Linux, which libdispatch
    /// reads too; `SystemFactsTests` holds them together), read directly. Through Dispatch a
    /// reading cost twice the instructions, and a cached hit reads the clock twice (the event's
    /// time, the request's latency).
    @inline(__always)
    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Whole seconds since the Unix epoch on the wall clock (the `Date` header's second).
    @inline(__always)
    public static func wallClockSecond() -> Int {
        time(nil)
    }

    /// Writes `text` to standard error in one `write(2)`: the last-resort log of a layer that was
    /// given no logger, safe from any thread.
    public static func writeToStandardError(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
