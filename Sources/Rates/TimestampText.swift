/// The timestamp texts almanac reads and writes. All are whole seconds: upstream times
/// finer than a second are truncated (`updated` is a label, not a measurement).
public enum TimestampText {
    /// 0000-01-01T00:00:00Z … 9999-12-31T23:59:59Z: the instants RFC 3339's four-digit year can
    /// write. Upstream timestamps outside it are rejected rather than rendered as `00-1-…` or
    /// `292277026596-…` (or overflowing while rendered in UK time).
    public static let writableRange: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// `2025-01-02T03:04:05Z` — RFC 3339 in UTC, the `updated` field of almanac's own API.
    public static func iso8601UTC(_ unixSeconds: Int64) -> String {
        let t = CivilTime(unixSeconds: unixSeconds)
        return "\(pad4(t.year))-\(pad2(t.month))-\(pad2(t.day))T\(pad2(t.hour)):\(pad2(t.minute)):\(pad2(t.second))Z"
    }

    /// `2015-09-28T01:23:00+00:00` — CoinDesk's `time.updatedISO`.
    public static func coinDeskISO(_ unixSeconds: Int64) -> String {
        let t = CivilTime(unixSeconds: unixSeconds)
        return "\(pad4(t.year))-\(pad2(t.month))-\(pad2(t.day))T\(pad2(t.hour)):\(pad2(t.minute)):\(pad2(t.second))+00:00"
    }

    /// `Sep 28, 2015 01:23:00 UTC` — CoinDesk's `time.updated` (day not zero-padded).
    public static func coinDeskUpdated(_ unixSeconds: Int64) -> String {
        let t = CivilTime(unixSeconds: unixSeconds)
        return "\(t.monthAbbreviation) \(t.day), \(t.year) \(pad2(t.hour)):\(pad2(t.minute)):\(pad2(t.second)) UTC"
    }

    /// `Sep 28, 2015 at 02:23 BST` — CoinDesk's `time.updateduk`, in UK civil time.
    public static func coinDeskUpdatedUK(_ unixSeconds: Int64) -> String {
        let (t, zone) = UKTime.local(unixSeconds: unixSeconds)
        return "\(t.monthAbbreviation) \(t.day), \(t.year) at \(pad2(t.hour)):\(pad2(t.minute)) \(zone)"
    }

    /// Parses RFC 3339 / ISO 8601 extended date-times as upstreams send them:
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`. Returns Unix seconds (fraction dropped),
    /// or nil when the instant is outside `writableRange` (`0000-01-01T00:00:00+01:00`).
    public static func parseISO8601(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= b.count else { return nil }
            var value = 0
            for k in i..<(i + width) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                value = value * 10 + Int(b[k] - 0x30)
            }
            i += width
            return value
        }
        func expect(_ c: Unicode.Scalar) -> Bool {
            guard i < b.count, b[i] == UInt8(ascii: c) else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            guard i > start else { return nil }
        }
        var offsetSeconds = 0
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = number(2) else { return nil }
            _ = expect(":")
            guard let om = number(2), oh < 24, om < 60 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let civil = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        let seconds = civil.unixSeconds - Int64(offsetSeconds)
        return writableRange.contains(seconds) ? seconds : nil
    }

    static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    static func pad4(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 4 ? s : String(repeating: "0", count: 4 - s.count) + s
    }
}
