import Base
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The `Date` header value (RFC 9110 §6.6.1) in IMF-fixdate form, formatted at most once per
/// second and shared by every connection: formatting a date per response is wasted work
/// when thousands of responses share the same second.
final class HTTPDateCache: Sendable {
    static let shared = HTTPDateCache()

    private struct Entry {
        var second: Int = -1
        var bytes: [UInt8] = []
    }

    private let entry = Mutex(Entry())

    /// The IMF-fixdate of the current second, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    var current: [UInt8] {
        let now = time(nil)
        return entry.withLock { entry in
            if entry.second != now {
                entry.second = now
                entry.bytes = HTTPDateCache.format(now)
            }
            return entry.bytes
        }
    }

    private static let days: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats seconds since the epoch as IMF-fixdate (always GMT, never localized).
    static func format(_ seconds: time_t) -> [UInt8] {
        var t = seconds
        var tm = tm()
        gmtime_r(&t, &tm)
        var out: [UInt8] = []
        out.reserveCapacity(29)
        func append(_ s: StaticString) {
            s.withUTF8Buffer { out.append(contentsOf: $0) }
        }
        func two(_ n: Int32) {
            out.append(UInt8(48 + n / 10))
            out.append(UInt8(48 + n % 10))
        }
        append(days[Int(tm.tm_wday)])
        append(", ")
        two(tm.tm_mday)
        out.append(32)
        append(months[Int(tm.tm_mon)])
        out.append(32)
        let year = Int(tm.tm_year) + 1900
        ASCIIDecimal.append(year, to: &out)
        out.append(32)
        two(tm.tm_hour)
        out.append(58)
        two(tm.tm_min)
        out.append(58)
        two(tm.tm_sec)
        append(" GMT")
        return out
    }
}
