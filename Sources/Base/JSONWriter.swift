/// Appends JSON text by hand: almanac renders each answer once, so the writer favours a fixed,
/// documented key order over generality. Strings are escaped by `JSONText`; numbers are written
/// by the caller's own exact formatter (`raw`), never through `Double`.
public struct JSONWriter {
    public private(set) var text = ""

    public init(capacity: Int = 256) { text.reserveCapacity(capacity) }

    /// Appends `s` as it is: punctuation, `null`, numbers already formatted.
    public mutating func raw(_ s: String) { text += s }

    /// A JSON string literal (RFC 8259 §7).
    public mutating func string(_ s: String) { JSONText.appendString(s, to: &text) }

    /// A string literal, or `null`.
    public mutating func optionalString(_ s: String?) {
        if let s { string(s) } else { text += "null" }
    }

    /// `"name":` (after a comma unless `first`).
    public mutating func key(_ name: String, first: Bool = false) {
        if !first { text += "," }
        string(name)
        text += ":"
    }

    public var bytes: [UInt8] { Array(text.utf8) }
}
