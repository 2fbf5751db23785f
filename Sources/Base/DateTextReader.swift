/// A cursor over the bytes of a date or time text: the parsers of HTTP-dates and RFC 3339
/// timestamps read upstream text through it, as bytes (no `Character`s, no locale), and no
/// input can make it trap.
struct DateTextReader {
    let bytes: [UInt8]
    var at = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { at == bytes.count }

    /// Whether the next byte is one of `scalars` (without consuming it).
    func next(is scalars: Unicode.Scalar...) -> Bool {
        at < bytes.count && scalars.contains { UInt32(bytes[at]) == $0.value }
    }

    /// Consumes ASCII digits up to the first other byte; how many there were.
    mutating func skipDigits() -> Int {
        let start = at
        while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39 { at += 1 }
        return at - start
    }

    mutating func skip(_ scalar: Unicode.Scalar) -> Bool {
        guard at < bytes.count, UInt32(bytes[at]) == scalar.value else { return false }
        at += 1
        return true
    }

    /// A run of ASCII letters (possibly empty).
    mutating func letters() -> String {
        let start = at
        while at < bytes.count, (bytes[at] | 0x20) >= UInt8(ascii: "a"), (bytes[at] | 0x20) <= UInt8(ascii: "z") { at += 1 }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    mutating func digits(_ count: Int) -> Int? { digits(count...count) }

    /// Up to `counts.upperBound` ASCII digits (at least `counts.lowerBound`), as a number.
    mutating func digits(_ counts: ClosedRange<Int>) -> Int? {
        var value = 0, n = 0
        while n < counts.upperBound, at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39 {
            value = value &* 10 &+ Int(bytes[at] - 0x30) // a few digits: never wraps in practice, never traps
            at += 1
            n += 1
        }
        return n >= counts.lowerBound ? value : nil
    }

    /// `Jan` … `Dec` as 1 … 12.
    mutating func month() -> Int? {
        guard at + 3 <= bytes.count else { return nil }
        let name = String(decoding: bytes[at..<(at + 3)], as: UTF8.self)
        guard let index = CivilTime.monthAbbreviations.firstIndex(of: name) else { return nil }
        at += 3
        return index + 1
    }

    /// `HH:MM:SS`.
    mutating func time() -> (hour: Int, minute: Int, second: Int)? {
        guard let h = digits(2), skip(":"), let m = digits(2), skip(":"), let s = digits(2) else { return nil }
        return (h, m, s)
    }
}
