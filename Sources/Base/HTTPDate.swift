/// HTTP-date (RFC 9110 §5.6.7): the `Date` header almanac sends and the `Retry-After` dates
/// upstreams send, from `CivilTime` (always GMT, never localized).
public enum HTTPDate {
    /// IMF-fixdate of Unix seconds, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func imfFixdate(_ unixSeconds: Int64) -> [UInt8] {
        let days = CivilTime.days(containing: unixSeconds)
        let secondOfDay = Int(unixSeconds - days * 86_400)
        let (year, month, day) = CivilTime.civil(fromDays: days)
        var out: [UInt8] = []
        out.reserveCapacity(29)
        func two(_ n: Int) {
            out.append(UInt8(truncatingIfNeeded: 48 + n / 10))
            out.append(UInt8(truncatingIfNeeded: 48 + n % 10))
        }
        out.append(contentsOf: CivilTime.weekdayAbbreviations[CivilTime.weekday(days: days)].utf8)
        out.append(contentsOf: ", ".utf8)
        two(day)
        out.append(32)
        out.append(contentsOf: CivilTime.monthAbbreviations[month - 1].utf8)
        out.append(32)
        ASCIIDecimal.append(year, to: &out)
        out.append(32)
        two(secondOfDay / 3600)
        out.append(58)
        two(secondOfDay / 60 % 60)
        out.append(58)
        two(secondOfDay % 60)
        out.append(contentsOf: " GMT".utf8)
        return out
    }

    /// Parses an HTTP-date in any of the three forms recipients must accept (RFC 9110 §5.6.7):
    /// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850
    /// `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`. Returns Unix
    /// seconds, or nil for anything else (read as bytes: no locale, no `Character`s). A
    /// two-digit year more than 50 years after `now`'s is read as the last century's.
    public static func parse(_ text: String, now: Int64) -> Int64? {
        var reader = DateTextReader(Array(text.utf8))
        let name = reader.letters()
        let fullNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        var year: Int, month: Int, day: Int
        if reader.skip(","), reader.skip(" ") {
            if CivilTime.weekdayAbbreviations.contains(name) {
                guard let d = reader.digits(2), reader.skip(" "), let m = reader.month(), reader.skip(" "),
                      let y = reader.digits(4), reader.skip(" ") else { return nil }
                (year, month, day) = (y, m, d)
            } else if fullNames.contains(name) {
                guard let d = reader.digits(2), reader.skip("-"), let m = reader.month(), reader.skip("-"),
                      let yy = reader.digits(2), reader.skip(" ") else { return nil }
                let nowYear = CivilTime(unixSeconds: now).year
                var y = nowYear - nowYear % 100 + yy
                if y > nowYear + 50 { y -= 100 }
                (year, month, day) = (y, m, d)
            } else {
                return nil
            }
            guard let time = reader.time(), reader.skip(" "), reader.letters() == "GMT", reader.atEnd else { return nil }
            return seconds(year: year, month: month, day: day, time)
        }
        guard CivilTime.weekdayAbbreviations.contains(name), reader.skip(" "), let m = reader.month(), reader.skip(" ") else { return nil }
        _ = reader.skip(" ") // a one-digit day is padded with a space
        guard let d = reader.digits(1...2), reader.skip(" "), let time = reader.time(), reader.skip(" "),
              let y = reader.digits(4), reader.atEnd else { return nil }
        return seconds(year: y, month: m, day: d, time)
    }

    private static func seconds(year: Int, month: Int, day: Int, _ time: (hour: Int, minute: Int, second: Int)) -> Int64? {
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: year),
              time.hour < 24, time.minute < 60, time.second <= 60 else { return nil }
        return CivilTime.days(year: year, month: month, day: day) * 86_400 + Int64(time.hour * 3600 + time.minute * 60 + min(time.second, 59))
    }
}
