#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ISO 8601 UTC timestamps with milliseconds (`2025-01-31T12:00:00.123Z`), built with
/// `gmtime_r` instead of a shared DateFormatter, which is neither cheap nor thread-safe.
enum LogTimestamp {
    static func now() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return format(seconds: Int(ts.tv_sec), milliseconds: Int(ts.tv_nsec) / 1_000_000)
    }

    static func format(seconds: Int, milliseconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
            + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
            + ".\(pad(milliseconds, 3))Z"
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
