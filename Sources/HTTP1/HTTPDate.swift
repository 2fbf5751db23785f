import Base
import Transport

/// The `Date` header value (RFC 9110 §6.6.1), an IMF-fixdate (`HTTPDate`) formatted at most once per
/// second: formatting a date per response is wasted work when thousands of responses share
/// the same second. One per event loop (`ConnectionLoop.currentDate()`), so that no lock or cache line
/// is shared between loops on a hit.
///
/// With it, the start of the most common head, `HTTP/1.1 200 OK`, `Date` and `Server`, made
/// in the same second (`ResponseHead.okPrefix`): a hit copies it as one block instead of
/// writing and formatting its eight pieces.
struct HTTPDateCache {
    private var second: Int = -1
    private var bytes: [UInt8] = []
    private var prefix: [UInt8] = []

    /// The IMF-fixdate of the current second, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, and the
    /// `200 OK` prefix with it and `serverName`.
    mutating func current(serverName: String) -> (date: [UInt8], okPrefix: [UInt8]) {
        let now = SystemFacts.wallClockSecond()
        if second != now {
            second = now
            bytes = HTTPDate.imfFixdate(Int64(now))
            prefix = ResponseHead.okPrefix(date: bytes, serverName: serverName)
        }
        return (bytes, prefix)
    }
}
