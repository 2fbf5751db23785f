import Testing
import Base

@Suite struct TimeTests {
    @Test func civilRoundTrip() {
        for seconds: Int64 in [0, 1, 86_399, 86_400, 951_782_400 /* 2000-02-29 */, 1_443_403_380, 4_102_444_800, -1] {
            #expect(CivilTime(unixSeconds: seconds).unixSeconds == seconds)
        }
        #expect(CivilTime(unixSeconds: 951_782_400) == CivilTime(year: 2000, month: 2, day: 29))
        #expect(CivilTime(unixSeconds: -1) == CivilTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
    }

    @Test func lastSundays() {
        // 2024: 31 March and 27 October; 2025: 30 March and 26 October; 2015: 29 March, 25 October
        #expect(CivilTime.lastSunday(year: 2024, month: 3) == CivilTime.days(year: 2024, month: 3, day: 31))
        #expect(CivilTime.lastSunday(year: 2024, month: 10) == CivilTime.days(year: 2024, month: 10, day: 27))
        #expect(CivilTime.lastSunday(year: 2025, month: 3) == CivilTime.days(year: 2025, month: 3, day: 30))
        #expect(CivilTime.lastSunday(year: 2025, month: 10) == CivilTime.days(year: 2025, month: 10, day: 26))
        #expect(CivilTime.lastSunday(year: 2015, month: 10) == CivilTime.days(year: 2015, month: 10, day: 25))
    }

    @Test func ukSummerTimeBoundaries() {
        let start = CivilTime(year: 2025, month: 3, day: 30, hour: 1).unixSeconds
        #expect(!UKTime.isSummerTime(unixSeconds: start - 1))
        #expect(UKTime.isSummerTime(unixSeconds: start))
        let end = CivilTime(year: 2025, month: 10, day: 26, hour: 1).unixSeconds
        #expect(UKTime.isSummerTime(unixSeconds: end - 1))
        #expect(!UKTime.isSummerTime(unixSeconds: end))
    }

    @Test func coinDeskTimestampsSummer() {
        let t: Int64 = 1_443_403_380 // 2015-09-28T01:23:00Z
        #expect(TimestampText.coinDeskUpdated(t) == "Sep 28, 2015 01:23:00 UTC")
        #expect(TimestampText.coinDeskISO(t) == "2015-09-28T01:23:00+00:00")
        #expect(TimestampText.coinDeskUpdatedUK(t) == "Sep 28, 2015 at 02:23 BST")
        #expect(TimestampText.iso8601UTC(t) == "2015-09-28T01:23:00Z")
    }

    @Test func coinDeskTimestampsWinter() {
        let t = CivilTime(year: 2025, month: 1, day: 4, hour: 23, minute: 30, second: 5).unixSeconds
        #expect(TimestampText.coinDeskUpdated(t) == "Jan 4, 2025 23:30:05 UTC")
        #expect(TimestampText.coinDeskUpdatedUK(t) == "Jan 4, 2025 at 23:30 GMT")
    }

    @Test func summerTimeCanChangeTheUKDate() {
        let t = CivilTime(year: 2024, month: 8, day: 4, hour: 23, minute: 30).unixSeconds
        #expect(TimestampText.coinDeskUpdatedUK(t) == "Aug 5, 2024 at 00:30 BST")
    }

    @Test func parsesISO8601Variants() {
        let t: Int64 = 1_726_812_300
        #expect(TimestampText.parseISO8601("2024-09-20T06:05:00+00:00") == t)
        #expect(TimestampText.parseISO8601("2024-09-20T06:05:00Z") == t)
        #expect(TimestampText.parseISO8601("2024-09-20T06:05:00.999Z") == t)
        #expect(TimestampText.parseISO8601("2024-09-20T07:05:00+01:00") == t)
        #expect(TimestampText.parseISO8601("2024-09-20T01:05:00-0500") == t)
        for bad in ["2024-09-20", "2024-09-20T06:05:00", "2024-13-20T06:05:00Z", "yesterday", "2024-09-20T06:05:00Zjunk"] {
            #expect(TimestampText.parseISO8601(bad) == nil, "\(bad)")
        }
    }
}
