import Foundation

/// Appends JSON text by hand: almanac renders each answer once, so the writer favours a fixed,
/// documented key order and exact numbers (from `Decimal`, never `Double`) over generality.
struct JSONWriter {
    private(set) var text = ""

    init(capacity: Int = 256) { text.reserveCapacity(capacity) }

    mutating func raw(_ s: String) { text += s }

    /// A JSON string literal (RFC 8259 §7): quotes, backslashes and control characters escaped.
    mutating func string(_ s: String) {
        text.append("\"")
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text.append("\"")
    }

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
