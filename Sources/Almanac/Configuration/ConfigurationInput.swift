import Base
import Foundation

/// One raw value on its way into the configuration: a JSON value from the file, or text from
/// the environment or a flag. Typed accessors answer nil for a value of the wrong type, so
/// every key reports "expected …, got …" the same way whatever the source.
enum ConfigurationInput {
    case json(Any)
    case text(String)

    /// An integer; JSON accepts integral numbers (`8080`, `8080.0`), never booleans.
    var integer: Int? {
        switch self {
        case let .text(s): return Int(s.trimmingCharacters(in: .whitespaces))
        case let .json(v):
            guard let n = ConfigurationInput.number(v) else { return nil }
            let d = n.doubleValue
            guard d.rounded() == d, abs(d) < 9.0e15 else { return nil }
            return Int(d)
        }
    }

    /// A finite number.
    var double: Double? {
        switch self {
        case let .text(s):
            guard let d = Double(s.trimmingCharacters(in: .whitespaces)), d.isFinite else { return nil }
            return d
        case let .json(v):
            guard let d = ConfigurationInput.number(v)?.doubleValue, d.isFinite else { return nil }
            return d
        }
    }

    var string: String? {
        switch self {
        case let .text(s): return s
        case let .json(v): return v as? String
        }
    }

    /// `.some(nil)` for JSON `null` or an empty string: both mean "not set".
    var optionalString: String?? {
        switch self {
        case let .text(s): return .some(s.isEmpty ? nil : s)
        case let .json(v):
            if v is NSNull { return .some(nil) }
            guard let s = v as? String else { return nil }
            return .some(s.isEmpty ? nil : s)
        }
    }

    /// A JSON boolean, or `true`/`false`/`1`/`0`/`yes`/`no` as text (any case).
    var boolean: Bool? {
        switch self {
        case let .text(s):
            switch ASCIICase.lowercased(s.trimmingCharacters(in: .whitespaces).utf8) {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: return nil
            }
        case let .json(v):
            guard let n = v as? NSNumber, !(v is String), ConfigurationInput.isBoolean(n) else { return nil }
            return n.boolValue
        }
    }

    /// A JSON array of strings, or comma-separated text (`coinbase, coingecko`).
    var stringList: [String]? {
        switch self {
        case let .text(s):
            return s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case let .json(v):
            guard let array = v as? [Any] else { return nil }
            let strings = array.compactMap { $0 as? String }
            return strings.count == array.count ? strings : nil
        }
    }

    /// The value as the error message quotes it: JSON as written, text in quotes, with any
    /// credentials masked (`MessageText.quoted`).
    var quoted: String {
        switch self {
        case let .text(s): return MessageText.quoted(s)
        case let .json(v): return ConfigurationInput.describeJSON(v)
        }
    }

    /// A JSON number that is not a boolean. JSONSerialization hands booleans back as
    /// NSNumber too (on Linux `__NSCFBoolean`, whose `is Int` is true), and their objCType is
    /// `c` (char), which JSON numbers never produce.
    static func number(_ v: Any) -> NSNumber? {
        guard let n = v as? NSNumber, !(v is String) else { return nil }
        return isBoolean(n) ? nil : n
    }

    static func isBoolean(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }

    static func describeJSON(_ v: Any) -> String {
        if v is NSNull { return "null" }
        if let s = v as? String { return MessageText.quoted(s) }
        if let n = v as? NSNumber {
            return isBoolean(n) ? (n.boolValue ? "true" : "false") : n.stringValue
        }
        if v is [Any] { return "an array" }
        if v is [String: Any] { return "an object" }
        return "\(v)"
    }
}

enum MessageText {
    /// A string in double quotes, shortened so a pasted blob cannot flood the terminal, with
    /// secrets masked first: userinfo in URLs (`http://***@host`), secret-looking query
    /// parameters (`key=***`) and credentials after `Authorization`/`Bearer` (`Redactor`).
    /// Configuration errors echo what was typed, and what was typed may be a password.
    static func quoted(_ s: String) -> String {
        let s = Redactor().redact(s)
        let shown = s.count > 80 ? String(s.prefix(77)) + "..." : s
        return "\"" + shown.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
