/// The timestamp texts almanac reads and writes, each written once, all from `CivilTime` (never
/// the host's locale or time-zone database). Answer timestamps are whole seconds: upstream
/// times finer than a second are truncated (`updated` is a label, not a measurement); log
/// lines carry milliseconds.
public enum TimestampText {
    /// 0000-01-01T00:00:00Z … 9999-12-31T23:59:59Z: the instants RFC 3339's four-digit year can
    /// write. Upstream timestamps outside it are rejected rather than rendered as `00-1-…` or
    /// `292277026596-…` (or overflowing while rendered in UK time).
    public static let writableRange: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// `2025-01-02T03:04:05Z` — RFC 3339 in UTC, the `updated` field of almanac's own API.
    public static func iso8601UTC(_ unixSeconds: Int64) -> String {
        let t = CivilTime(unixSeconds: unixSeconds)
        return "\(pad(t.year, 4))-\(pad(t.month, 2))-\(pad(t.day, 2))T\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))Z"
    }

    /// `2015-09-28T01:23:00+00:00` — CoinDesk's `time.updatedISO`.
    public static func coinDeskISO(_ unixSeconds: Int64) -> String {
        let t = CivilTime(unixSeconds: unixSeconds)
        return "\(pad(t.year, 4))-\(pad(t.month, 2))-\(pad(t.day, 2))T\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))+00:00"
    }

    /// `Sep 28, 2015 01:23:00 UTC` — CoinDesk's `time.updated` (day not zero-padded).
    public static func coinDeskUpdated(_ unixSeconds: Int64) -> String {
        let t = CivilTime(unixSeconds: unixSeconds)
        return "\(t.monthAbbreviation) \(t.day), \(t.year) \(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2)) UTC"
    }

    /// `Sep 28, 2015 at 02:23 BST` — CoinDesk's `time.updateduk`, in UK civil time.
    public static func coinDeskUpdatedUK(_ unixSeconds: Int64) -> String {
        let (t, zone) = UKTime.local(unixSeconds: unixSeconds)
        return "\(t.monthAbbreviation) \(t.day), \(t.year) at \(pad(t.hour, 2)):\(pad(t.minute, 2)) \(zone)"
    }

    /// `2025-01-31T12:00:00.123Z` — RFC 3339 in UTC with milliseconds: every log line's `time`.
    public static func iso8601Milliseconds(seconds: Int, milliseconds: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendISO8601Milliseconds(seconds: seconds, milliseconds: milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `iso8601Milliseconds(seconds:milliseconds:)`'s bytes. The access log writes one
    /// per request: 24 fixed-width bytes formatted on the stack and appended with one copy (one
    /// `append` per byte paid a capacity and uniqueness check each).
    @inlinable
    public static func appendISO8601Milliseconds(seconds: Int, milliseconds: Int, to bytes: inout [UInt8]) {
        var days = seconds / 86_400
        var secondOfDay = seconds - days * 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = CivilTime.civil(fromDays: Int64(days))
        guard (0...9999).contains(year), (0...999).contains(milliseconds) else {
            let text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
                + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(milliseconds, 3))Z"
            bytes.append(contentsOf: text.utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { out in
            func two(_ v: Int, at i: Int) {
                out[i] = UInt8(truncatingIfNeeded: 48 + v / 10)
                out[i + 1] = UInt8(truncatingIfNeeded: 48 + v % 10)
            }
            two(year / 100, at: 0)
            two(year % 100, at: 2)
            out[4] = UInt8(ascii: "-")
            two(month, at: 5)
            out[7] = UInt8(ascii: "-")
            two(day, at: 8)
            out[10] = UInt8(ascii: "T")
            two(secondOfDay / 3600, at: 11)
            out[13] = UInt8(ascii: ":")
            two(secondOfDay / 60 % 60, at: 14)
            out[16] = UInt8(ascii: ":")
            two(secondOfDay % 60, at: 17)
            out[19] = UInt8(ascii: ".")
            out[20] = UInt8(truncatingIfNeeded: 48 + milliseconds / 100)
            two(milliseconds % 100, at: 21)
            out[23] = UInt8(ascii: "Z")
            bytes.append(contentsOf: UnsafeBufferPointer(out))
        }
    }

    /// Appends `2024-01-01` (RFC 3339 full-date) for days since 1970-01-01 whose year is 0…9999.
    public static func appendDate(days: Int64, to out: inout [UInt8]) {
        let (y, m, d) = CivilTime.civil(fromDays: days)
        out.append(0x30 + UInt8(truncatingIfNeeded: y / 1000 % 10))
        out.append(0x30 + UInt8(truncatingIfNeeded: y / 100 % 10))
        out.append(0x30 + UInt8(truncatingIfNeeded: y / 10 % 10))
        out.append(0x30 + UInt8(truncatingIfNeeded: y % 10))
        out.append(UInt8(ascii: "-"))
        out.append(0x30 + UInt8(truncatingIfNeeded: m / 10))
        out.append(0x30 + UInt8(truncatingIfNeeded: m % 10))
        out.append(UInt8(ascii: "-"))
        out.append(0x30 + UInt8(truncatingIfNeeded: d / 10))
        out.append(0x30 + UInt8(truncatingIfNeeded: d % 10))
    }

    /// Parses a strict RFC 3339 full-date `YYYY-MM-DD` (exactly ten ASCII bytes, a real calendar
    /// date) as days since 1970-01-01; nil for anything else (`2024-2-1`, `2024-02-30`, `２０２４…`).
    public static func parseDate<S: StringProtocol>(_ text: S) -> Int64? {
        var r = DateTextReader(Array(text.utf8.prefix(11)))
        guard let year = r.digits(4), r.skip("-"), let month = r.digits(2), r.skip("-"), let day = r.digits(2), r.atEnd,
              (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: year) else { return nil }
        return CivilTime.days(year: year, month: month, day: day)
    }

    /// Parses RFC 3339 / ISO 8601 extended date-times as upstreams send them:
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`. Returns Unix seconds (fraction dropped),
    /// or nil when the instant is outside `writableRange` (`0000-01-01T00:00:00+01:00`).
    public static func parseISO8601(_ text: String) -> Int64? {
        var r = DateTextReader(Array(text.utf8))
        guard let year = r.digits(4), r.skip("-"), let month = r.digits(2), r.skip("-"), let day = r.digits(2),
              r.skip("T") || r.skip("t") || r.skip(" ") else { return nil }
        guard let hour = r.digits(2), r.skip(":"), let minute = r.digits(2), r.skip(":"), let second = r.digits(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        if r.skip("."), r.skipDigits() == 0 { return nil }
        var offsetSeconds = 0
        if !(r.skip("Z") || r.skip("z")) {
            guard r.next(is: "+", "-") else { return nil }
            let sign = r.skip("-") ? -1 : 1
            if sign == 1 { _ = r.skip("+") }
            guard let oh = r.digits(2) else { return nil }
            _ = r.skip(":")
            guard let om = r.digits(2), oh < 24, om < 60 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        }
        guard r.atEnd else { return nil }
        let civil = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        let seconds = civil.unixSeconds - Int64(offsetSeconds)
        return writableRange.contains(seconds) ? seconds : nil
    }

    /// `n` zero-padded to `width` digits (`String(n)` when it is wider already).
    @usableFromInline
    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
