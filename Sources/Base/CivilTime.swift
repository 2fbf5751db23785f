/// Calendar arithmetic on Unix seconds in the proleptic Gregorian calendar, without
/// `Calendar`, `DateFormatter` or the host's time-zone database: output must not depend on
/// the machine's locale or tzdata (a container without /usr/share/zoneinfo would otherwise
/// print GMT in July). Algorithms: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms".
public struct CivilTime: Sendable, Equatable {
    public var year: Int
    /// 1…12
    public var month: Int
    /// 1…31
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The UTC civil time of `unixSeconds`.
    public init(unixSeconds: Int64) {
        let days = CivilTime.days(containing: unixSeconds)
        let secondsOfDay = Int(unixSeconds - days * 86_400)
        let (y, m, d) = CivilTime.civil(fromDays: days)
        self.init(year: y, month: m, day: d,
                  hour: secondsOfDay / 3600, minute: secondsOfDay % 3600 / 60, second: secondsOfDay % 60)
    }

    /// Seconds since 1970-01-01T00:00:00Z of this civil time read as UTC.
    public var unixSeconds: Int64 {
        CivilTime.days(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Days since 1970-01-01 of a civil date.
    @inlinable
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date (year, month 1…12, day 1…31) of days since 1970-01-01.
    @inlinable
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        let y = Int(yoe + era * 400) + (m <= 2 ? 1 : 0)
        return (y, m, d)
    }

    /// Days since 1970-01-01 of the UTC day containing `unixSeconds` (floor division, so
    /// instants before 1970 work too).
    public static func days(containing unixSeconds: Int64) -> Int64 {
        unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
    }

    /// Days in `month` (1…12) of `year` (proleptic Gregorian).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// English weekday abbreviations, index 0 = Sunday (as `weekday(days:)`).
    public static let weekdayAbbreviations = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// 0 = Sunday … 6 = Saturday.
    public static func weekday(days: Int64) -> Int {
        Int(days >= -4 ? (days + 4) % 7 : (days + 5) % 7 + 6)
    }

    /// Days since 1970-01-01 of the last Sunday of `month` in `year`.
    public static func lastSunday(year: Int, month: Int) -> Int64 {
        let nextMonthFirst = month == 12 ? days(year: year + 1, month: 1, day: 1) : days(year: year, month: month + 1, day: 1)
        let lastDay = nextMonthFirst - 1
        return lastDay - Int64(weekday(days: lastDay))
    }

    /// English month abbreviations (HTTP-date, CoinDesk's texts): never localized.
    public static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public var monthAbbreviation: String { CivilTime.monthAbbreviations[month - 1] }
}
