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
        let year = Int(parts.tm_year) + 1900
        if (0...9999).contains(year), (0...999).contains(milliseconds) {
            // Fixed width: written in place (this runs for every log line).
            let fields = [(year, 4), (Int(parts.tm_mon) + 1, 2), (Int(parts.tm_mday), 2), (Int(parts.tm_hour), 2),
                          (Int(parts.tm_min), 2), (Int(parts.tm_sec), 2), (milliseconds, 3)]
            let separators: [UInt8] = Array("--T::.Z".utf8)
            return String(unsafeUninitializedCapacity: 24) { buffer in
                var at = 0
                for (index, (value, width)) in fields.enumerated() {
                    var v = value
                    for k in stride(from: at + width - 1, through: at, by: -1) {
                        buffer[k] = UInt8(48 + v % 10)
                        v /= 10
                    }
                    at += width
                    buffer[at] = separators[index]
                    at += 1
                }
                return at
            }
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
            + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
            + ".\(pad(milliseconds, 3))Z"
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
