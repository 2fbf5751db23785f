/// UK civil time: GMT in winter, BST (UTC+1) from 01:00 UTC on the last Sunday of March to
/// 01:00 UTC on the last Sunday of October (the Summer Time Order 2002, aligned with
/// EU Directive 2000/84/EC). CoinDesk's `updateduk` field is in this time.
public enum UKTime {
    public static func isSummerTime(unixSeconds: Int64) -> Bool {
        let year = CivilTime(unixSeconds: unixSeconds).year
        let start = CivilTime.lastSunday(year: year, month: 3) * 86_400 + 3600
        let end = CivilTime.lastSunday(year: year, month: 10) * 86_400 + 3600
        return unixSeconds >= start && unixSeconds < end
    }

    /// UK local time of `unixSeconds` and the zone abbreviation (`BST` or `GMT`).
    public static func local(unixSeconds: Int64) -> (CivilTime, String) {
        isSummerTime(unixSeconds: unixSeconds)
            ? (CivilTime(unixSeconds: unixSeconds + 3600), "BST")
            : (CivilTime(unixSeconds: unixSeconds), "GMT")
    }
}
