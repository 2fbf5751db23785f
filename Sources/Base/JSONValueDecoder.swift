/// Decodes a `Decodable` wire shape from a `JSONValue` that `JSONParser` produced.
///
/// Why not Foundation's `JSONDecoder`: it is a second JSON reader with its own rules (last
/// duplicate name wins, numbers through `Double`), so the same upstream body could mean one
/// thing to Rates and another to Books. Every upstream answer is parsed once, strictly, by
/// `JSONParser`; providers that describe their answer as `Decodable` structs read it through
/// this decoder. Errors are the standard `DecodingError`s with the coding path, so the
/// provider's 502 detail can name the exact field.
///
/// Numbers are strict: an integer type accepts only an integer literal (no fraction, no
/// exponent) within its range; a floating-point type accepts any number literal.
public struct JSONValueDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: JSONValueDecoding(value: value, codingPath: []))
    }
}

/// One position in the document being decoded (the `Decoder` a `Decodable` init receives).
private struct JSONValueDecoding: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case let .object(members) = value else {
            throw JSONValueDecoding.mismatch([String: JSONValue].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedJSONContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case let .array(elements) = value else {
            throw JSONValueDecoding.mismatch([JSONValue].self, value, codingPath)
        }
        return UnkeyedJSONContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleJSONContainer(value: value, codingPath: codingPath)
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "found null"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "found \(value.kindDescription)"))
    }

    /// The scalar reading every container shares: strict types, no conversions.
    static func scalar<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        switch type {
        case is String.Type:
            guard case let .string(text) = value else { throw mismatch(type, value, path) }
            return try typed(text, path)
        case is Bool.Type:
            guard case let .bool(flag) = value else { throw mismatch(type, value, path) }
            return try typed(flag, path)
        case is Int.Type: return try typed(try integer(Int.self, value, path), path)
        case is Int64.Type: return try typed(try integer(Int64.self, value, path), path)
        case is Int32.Type: return try typed(try integer(Int32.self, value, path), path)
        case is UInt.Type: return try typed(try integer(UInt.self, value, path), path)
        case is UInt64.Type: return try typed(try integer(UInt64.self, value, path), path)
        case is Double.Type:
            guard case let .number(text) = value else { throw mismatch(type, value, path) }
            guard let number = Double(text), number.isFinite else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "number out of range"))
            }
            return try typed(number, path)
        default:
            return try T(from: JSONValueDecoding(value: value, codingPath: path))
        }
    }

    /// `value` as `T` when the type switch above already matched them (a cast that cannot fail,
    /// written without a trap).
    private static func typed<T>(_ value: Any, _ path: [any CodingKey]) throws -> T {
        guard let typed = value as? T else {
            throw DecodingError.typeMismatch(T.self, .init(codingPath: path, debugDescription: "internal type mismatch"))
        }
        return typed
    }

    /// An integer literal (`-?[0-9]+`, as `JSONParser` checked the grammar) within `I`'s range.
    static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> I {
        guard case let .number(text) = value else { throw mismatch(type, value, path) }
        guard let number = I(text, radix: 10) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "not an integer within range"))
        }
        return number
    }
}

private struct KeyedJSONContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONValueDecoding.scalar(type, try member(key), codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONValueDecoding(value: try member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoding(value: try member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoding(value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoding(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

/// A position inside an array, named `[i]` in coding paths.
private struct ArrayIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedJSONContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: codingPath, debugDescription: "no more elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [ArrayIndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try JSONValueDecoding.scalar(type, value, path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try JSONValueDecoding(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try JSONValueDecoding(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return JSONValueDecoding(value: value, codingPath: path)
    }
}

private struct SingleJSONContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoding.scalar(type, value, codingPath)
    }
}
