import Glibc
import Base
import Testing
import TestSupport

/// The formats written from `CivilTime`, checked against the C library's `gmtime_r` (an
/// independent proleptic Gregorian implementation).
@Suite struct DateFormatTests {
    private static func gmtime(_ seconds: Int) -> tm {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return parts
    }

    private static func pad(_ n: Int32, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    @Test func logTimestampsMatchGmtime() {
        var rng = SplitMix64(seed: 7)
        var seconds = [0, 1, 59, 86_399, 86_400, 951_782_400, 951_868_800, 1_700_000_000, 4_102_444_800,
                       253_402_300_799, -1, -86_400, -62_135_596_800]
        for _ in 0..<20_000 {
            seconds.append(Int(rng.next() % 253_402_300_800))
        }
        for s in seconds {
            let p = Self.gmtime(s)
            for ms in [0, 5, 999] {
                let expected = "\(Self.pad(p.tm_year + 1900, 4))-\(Self.pad(p.tm_mon + 1, 2))-\(Self.pad(p.tm_mday, 2))"
                    + "T\(Self.pad(p.tm_hour, 2)):\(Self.pad(p.tm_min, 2)):\(Self.pad(p.tm_sec, 2)).\(Self.pad(Int32(ms), 3))Z"
                var bytes: [UInt8] = []
                TimestampText.appendISO8601Milliseconds(seconds: s, milliseconds: ms, to: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(s)")
                #expect(TimestampText.iso8601Milliseconds(seconds: s, milliseconds: ms) == expected, "\(s)")
            }
        }
    }

    @Test func imfFixdate() {
        #expect(String(decoding: HTTPDate.imfFixdate(784_111_777), as: UTF8.self) == "Sun, 06 Nov 1994 08:49:37 GMT")
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        for s in stride(from: 0, to: 4_102_444_800, by: 7_919_993) {
            let p = Self.gmtime(s)
            let expected = "\(days[Int(p.tm_wday)]), \(Self.pad(p.tm_mday, 2)) \(months[Int(p.tm_mon)]) \(p.tm_year + 1900) "
                + "\(Self.pad(p.tm_hour, 2)):\(Self.pad(p.tm_min, 2)):\(Self.pad(p.tm_sec, 2)) GMT"
            #expect(String(decoding: HTTPDate.imfFixdate(Int64(s)), as: UTF8.self) == expected)
        }
    }

    @Test func fullDates() {
        var out: [UInt8] = []
        TimestampText.appendDate(days: 19_723, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "2024-01-01")
        out = []
        TimestampText.appendDate(days: CivilTime.days(year: 1, month: 1, day: 1), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "0001-01-01")
    }
}

@Suite struct HTTPDateParsingTests {
    private let now: Int64 = 1_445_412_480 // 2015-10-21T07:28:00Z

    @Test func theThreeForms() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994", now: now) == 784_111_777)
        #expect(HTTPDate.parse("Wed Oct 21 07:28:05 2015", now: now) == now + 5)
    }

    /// Every IMF-fixdate almanac writes reads back to the same second.
    @Test func imfFixdateRoundTrip() {
        for s in stride(from: Int64(0), to: 4_102_444_800, by: 7_919_993) {
            #expect(HTTPDate.parse(String(decoding: HTTPDate.imfFixdate(s), as: UTF8.self), now: now) == s)
        }
    }

    /// RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is in the past century.
    @Test func twoDigitYears() {
        #expect(HTTPDate.parse("Thursday, 01-Jan-65 00:00:00 GMT", now: now) == CivilTime(year: 2065, month: 1, day: 1).unixSeconds)
        #expect(HTTPDate.parse("Friday, 01-Jan-66 00:00:00 GMT", now: now) == CivilTime(year: 1966, month: 1, day: 1).unixSeconds)
    }

    @Test func rejectsEverythingElse() {
        for text in ["", "soon", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 6 Nov 1994 08:49:37 GMT",
                     "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                     "Sunday, 06 Nov 1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994 GMT",
                     "Sun, 06 Nov 1994 08:49:37 GMT ", "Sun, ٠٦ Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT\u{301}"] {
            #expect(HTTPDate.parse(text, now: now) == nil, "\(text.debugDescription)")
        }
    }
}
