import Base
import Foundation

/// Appends JSON text by hand: almanac renders each answer once, so the writer favours a fixed,
/// documented key order and exact numbers (from `Decimal`, never `Double`) over generality.
struct JSONWriter {
    private(set) var text = ""

    init(capacity: Int = 256) { text.reserveCapacity(capacity) }

    mutating func raw(_ s: String) { text += s }

    /// A JSON string literal (RFC 8259 §7), escaped by `JSONText`.
    mutating func string(_ s: String) { JSONText.appendString(s, to: &text) }

    mutating func optionalString(_ s: String?) {
        if let s { string(s) } else { text += "null" }
    }

    mutating func number(_ d: Decimal) { text += DecimalText.json(d) }

    /// `"name":` (after a comma unless `first`).
    mutating func key(_ name: String, first: Bool = false) {
        if !first { text += "," }
        string(name)
        text += ":"
    }

    var bytes: [UInt8] { Array(text.utf8) }
}
