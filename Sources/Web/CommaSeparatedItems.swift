import HTTP1

extension StringProtocol {
    /// The items of a comma-separated list (`a, b,,c`), split at the byte `,` and trimmed of
    /// spaces and tabs, empty items dropped. Never split by `Character`: `,` followed by
    /// U+0301 is one grapheme cluster, which `split(separator: ",")` would not split at.
    public func commaSeparatedItems() -> [Substring] {
        Substring(self).utf8.split(separator: UInt8(ascii: ","))
            .map { Substring($0).trimmingASCIIWhitespace() }
            .filter { !$0.isEmpty }
    }
}
