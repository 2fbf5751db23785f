/// Random text and bytes for property tests, from a seeded `SplitMix64`: text mixes ASCII with
/// the scalars that break naive code (combining marks, a ZWJ emoji sequence, right-to-left
/// text, currency symbols, NUL and other controls, the largest scalar), so a failure replays
/// from its seed.
extension SplitMix64 {
    static let awkwardScalars: [Unicode.Scalar] = [
        "a", "Z", "0", "9", " ", ":", "%", "\"", "\\", "\u{0}", "\n", "\u{7F}",
        "é", "e", "\u{301}", "\u{308}", "€", "₿", "ł", "¥", "ñ", "ß",
        "\u{200D}", "\u{FE0F}", "\u{1F3F3}", "\u{1F308}", "\u{1F4B0}", "中", "文",
        "\u{5E9}", "\u{627}", "\u{202E}", "\u{212A}", "\u{FF11}", "\u{FFFD}", "\u{10FFFF}",
    ]

    /// Up to `maxScalars` scalars, each ASCII or awkward.
    public mutating func text(maxScalars: Int) -> String {
        let count = Int(next() % UInt64(max(1, maxScalars) + 1))
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            if next() % 2 == 0 {
                scalars.append(Unicode.Scalar(UInt8(32 + next() % 95)))
            } else {
                scalars.append(Self.awkwardScalars[Int(next() % UInt64(Self.awkwardScalars.count))])
            }
        }
        return String(scalars)
    }

    /// Up to `maxCount` bytes of any value.
    public mutating func bytes(maxCount: Int) -> [UInt8] {
        let count = Int(next() % UInt64(max(1, maxCount) + 1))
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// `true` one time in `n`.
    public mutating func oneIn(_ n: UInt64) -> Bool {
        next() % max(1, n) == 0
    }
}
