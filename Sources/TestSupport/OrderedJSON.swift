/// A JSON document read with its members in the order they were written, for tests that
/// check key order or read a value by position, as clients of order-preserving parsers do
/// (R's jsonlite turns an object into a list: `bpi[[2]][2]` is "the second field of the
/// second entry"). Numbers keep their literal text. Test-only: strict enough for answers a
/// server wrote, not a validating parser.
public indirect enum OrderedJSON: Sendable, Equatable {
    case object([Member])
    case array([OrderedJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: OrderedJSON
    }

    /// An object written as a literal in the order given: `.members(["code": .string("XBT"), …])`.
    public static func members(_ pairs: KeyValuePairs<String, OrderedJSON>) -> OrderedJSON {
        .object(pairs.map { Member(key: $0.key, value: $0.value) })
    }

    public struct Malformed: Error, CustomStringConvertible {
        public var offset: Int
        public var description: String { "malformed JSON at byte \(offset)" }
    }

    public init(_ bytes: [UInt8]) throws {
        var reader = Reader(bytes: bytes)
        self = try reader.value()
        reader.skipSpace()
        guard reader.index == bytes.count else { throw Malformed(offset: reader.index) }
    }

    public init(_ text: String) throws { try self.init(Array(text.utf8)) }

    /// An object's keys in order ([] for anything else).
    public var keys: [String] {
        if case let .object(members) = self { return members.map(\.key) }
        return []
    }

    /// The member `name` of an object.
    public subscript(name: String) -> OrderedJSON? {
        if case let .object(members) = self { return members.first { $0.key == name }?.value }
        return nil
    }

    /// The value at 0-based `position` of an object's members or an array's elements.
    public subscript(position position: Int) -> OrderedJSON? {
        switch self {
        case let .object(members): return members.indices.contains(position) ? members[position].value : nil
        case let .array(items): return items.indices.contains(position) ? items[position] : nil
        default: return nil
        }
    }

    /// The text of a string or number.
    public var text: String? {
        switch self {
        case let .string(s), let .number(s): return s
        default: return nil
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw Malformed(offset: index) }
                index += 1
            }
        }

        mutating func value() throws -> OrderedJSON {
            skipSpace()
            guard index < bytes.count else { throw Malformed(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [Member] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    members.append(Member(key: key, value: try value()))
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [OrderedJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    items.append(try value())
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("]")
                    return .array(items)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            default:
                let start = index
                while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                guard index > start else { throw Malformed(offset: index) }
                return .number(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }

        mutating func string() throws -> String {
            try expect("\"")
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll()
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") {
                    flush()
                    return String(scalars)
                }
                guard byte == UInt8(ascii: "\\") else { run.append(byte); continue }
                flush()
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800..<0xDC00).contains(unit), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\") {
                        index += 2
                        let low = try hex4()
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                default: scalars.append(Unicode.Scalar(escape))
                }
            }
            throw Malformed(offset: index)
        }

        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count,
                  let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw Malformed(offset: index)
            }
            index += 4
            return value
        }
    }
}
