/// HTTP-date (RFC 9110 §5.6.7): the `Date` header almanac sends and the `Retry-After` dates
/// upstreams send, from `CivilTime` (always GMT, never localized).
public enum HTTPDate {
    /// IMF-fixdate of Unix seconds, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func imfFixdate(_ unixSeconds: Int64) -> [UInt8] {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
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
}
