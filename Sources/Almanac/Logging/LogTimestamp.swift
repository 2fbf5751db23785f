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

    /// Appends `now()`'s bytes, computed with integer arithmetic (days → civil date) in place.
    static func appendNow(to bytes: inout [UInt8]) {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        append(seconds: Int(ts.tv_sec), milliseconds: Int(ts.tv_nsec) / 1_000_000, to: &bytes)
    }

    /// The bytes of `format(seconds:milliseconds:)`.
    static func append(seconds: Int, milliseconds: Int, to bytes: inout [UInt8]) {
        // Civil date from days since 1970-01-01 (H. Hinnant's `civil_from_days`), proleptic
        // Gregorian like `gmtime_r`.
        var days = seconds / 86_400
        var secondOfDay = seconds - days * 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard (0...9999).contains(year), (0...999).contains(milliseconds) else {
            bytes.append(contentsOf: format(seconds: seconds, milliseconds: milliseconds).utf8)
            return
        }
        // 24 fixed-width bytes formatted on the stack, appended with one copy (one `append`
        // per byte paid a capacity and uniqueness check each: most of this function's cost).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { out in
            func two(_ v: Int, at i: Int) {
                out[i] = UInt8(truncatingIfNeeded: 48 + v / 10)
                out[i + 1] = UInt8(truncatingIfNeeded: 48 + v % 10)
            }
            two(year / 100, at: 0)
            two(year % 100, at: 2)
            out[4] = UInt8(ascii: "-")
            two(month, at: 5)
            out[7] = UInt8(ascii: "-")
            two(day, at: 8)
            out[10] = UInt8(ascii: "T")
            two(secondOfDay / 3600, at: 11)
            out[13] = UInt8(ascii: ":")
            two(secondOfDay / 60 % 60, at: 14)
            out[16] = UInt8(ascii: ":")
            two(secondOfDay % 60, at: 17)
            out[19] = UInt8(ascii: ".")
            out[20] = UInt8(truncatingIfNeeded: 48 + milliseconds / 100)
            two(milliseconds % 100, at: 21)
            out[23] = UInt8(ascii: "Z")
            bytes.append(contentsOf: UnsafeBufferPointer(out))
        }
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
