/// A parsed JSON document that keeps every number as the exact text the upstream sent.
///
/// Why not `JSONSerialization` or `JSONDecoder`: both turn `91234.56789012345678` into a
/// `Double` (or an `NSNumber` backed by one) before we can see it, silently dropping digits.
/// Rates must survive the trip unchanged, so numbers stay text until `DecimalText` turns
/// them into `Decimal` (RFC 8259 §6 leaves number precision to the implementation).
public indirect enum JSONValue: Sendable, Equatable {
    /// Members by name; `JSONParser` refuses an object that names a member twice.
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// The number literal exactly as written, e.g. `9.12345e4`.
    case number(String)
    case bool(Bool)
    case null

    /// The member `name` when this is an object.
    public subscript(name: String) -> JSONValue? {
        if case let .object(members) = self { return members[name] }
        return nil
    }

    /// A short word for error messages: "an object", "a string", ….
    public var kindDescription: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}
