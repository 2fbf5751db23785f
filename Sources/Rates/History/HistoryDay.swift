import Base

/// A UTC calendar day as a count of days since 1970-01-01 (day 0). Historical prices are
/// keyed by these: block arithmetic is integer arithmetic, and a day's text is written only
/// when a body is rendered.
///
/// The close of day D is the daily candle that starts at D 00:00 UTC (and ends at D+1 00:00).
public enum HistoryDay {
    /// 2010-07-17: the first day CoinDesk's BPI covered; earlier starts get its error text.
    public static let coinDeskFirst: Int64 = 14_807
    /// 0001-01-01 … 9999-12-31: the days `parse` accepts (four-digit years, RFC 3339 full-date).
    public static let writable: ClosedRange<Int64> = CivilTime.days(year: 1, month: 1, day: 1)...CivilTime.days(year: 9999, month: 12, day: 31)

    /// The day containing `unixSeconds` (floor division, so instants before 1970 work too).
    public static func containing(unixSeconds: Int64) -> Int64 {
        CivilTime.days(containing: unixSeconds)
    }

    /// The last complete day at `unixSeconds`: yesterday in UTC.
    public static func yesterday(unixSeconds: Int64) -> Int64 { containing(unixSeconds: unixSeconds) - 1 }

    /// Unix seconds of the day's 00:00 UTC.
    public static func startSeconds(_ day: Int64) -> Int64 { day * 86_400 }

    /// Strict `YYYY-MM-DD` (`TimestampText.parseDate`: exactly ten ASCII bytes, a real calendar
    /// date, compared as bytes) in `writable`. Nil for anything else (`0000-01-01`, `2024-02-30`).
    public static func parse<S: StringProtocol>(_ text: S) -> Int64? {
        TimestampText.parseDate(text).flatMap { writable.contains($0) ? $0 : nil }
    }

    /// `2024-01-01`.
    public static func text(_ day: Int64) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(10)
        append(day, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `YYYY-MM-DD` (days outside `writable` are clamped: callers only pass days they parsed).
    public static func append(_ day: Int64, to out: inout [UInt8]) {
        TimestampText.appendDate(days: min(max(day, writable.lowerBound), writable.upperBound), to: &out)
    }
}
