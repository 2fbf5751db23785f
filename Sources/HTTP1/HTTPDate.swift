import Base
import Transport
import Synchronization

/// The `Date` header value (RFC 9110 §6.6.1), an IMF-fixdate (`HTTPDate`) formatted at most once per
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
        let now = SystemFacts.wallClockSecond()
        return entry.withLock { entry in
            if entry.second != now {
                entry.second = now
                entry.bytes = HTTPDate.imfFixdate(Int64(now))
            }
            return entry.bytes
        }
    }
}
