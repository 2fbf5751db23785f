/// Reads a record `BinaryRecordWriter` wrote, field by field, from bytes that may be anything:
/// another version's record, a truncated or damaged one, or random bytes.
///
/// Every read is checked against the bytes that remain and throws instead of trapping: a
/// declared length or count larger than what is left fails before anything is allocated, a
/// varint longer than ten bytes or past 64 bits fails, text must be valid UTF-8. Only the
/// shortest form of each field is accepted (no overlong varints, booleans 0 or 1, map keys in
/// strictly ascending byte order), so a record that reads back re-encodes to the same bytes.
public struct BinaryRecordReader {
    private let bytes: [UInt8]
    /// Index of the next unread byte.
    public private(set) var offset: Int

    /// Reads `bytes` as a record of `format` with `body`, which reads every field. nil when the
    /// tag or version differ, a read fails, `body` throws, or bytes remain after it.
    public static func read<Value>(_ bytes: [UInt8], format: BinaryRecordFormat,
                                   _ body: (inout BinaryRecordReader) throws(BinaryRecordError) -> Value) -> Value? {
        try? decode(bytes, format: format, body).get()
    }

    /// `read`, saying why the bytes were refused.
    public static func decode<Value>(_ bytes: [UInt8], format: BinaryRecordFormat,
                                     _ body: (inout BinaryRecordReader) throws(BinaryRecordError) -> Value)
        -> Result<Value, BinaryRecordError> {
        guard bytes.count >= 2 else { return .failure(BinaryRecordError(.truncated, at: bytes.count)) }
        guard bytes[0] == format.tag, bytes[1] == format.version else {
            return .failure(BinaryRecordError(.wrongFormat(tag: bytes[0], version: bytes[1]), at: 0))
        }
        var reader = BinaryRecordReader(bytes: bytes, offset: 2)
        do {
            let value = try body(&reader)
            guard reader.offset == bytes.count else { return .failure(BinaryRecordError(.trailingBytes, at: reader.offset)) }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    private init(bytes: [UInt8], offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Bytes not read yet.
    public var remaining: Int { bytes.count &- offset }

    /// An error at the current offset, for checks a caller makes on the values it read (a
    /// decimal that is not canonical text, an unknown enumeration name).
    public func invalid(_ what: String) -> BinaryRecordError {
        BinaryRecordError(.invalidValue(what), at: offset)
    }

    /// An unsigned varint: at most ten bytes, within 64 bits, no trailing zero groups.
    public mutating func readUInt64() throws(BinaryRecordError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw BinaryRecordError(.truncated, at: offset) }
            let byte = bytes[offset]
            offset &+= 1
            let group = UInt64(byte & 0x7F)
            // The tenth byte holds bit 63 only.
            if shift == 63, group > 1 { throw BinaryRecordError(.badInteger, at: start) }
            value |= group << shift
            if byte & 0x80 == 0 {
                // A last group of zero after others is an overlong form of a shorter varint.
                if group == 0, shift > 0 { throw BinaryRecordError(.badInteger, at: start) }
                return value
            }
            shift &+= 7
            if shift > 63 { throw BinaryRecordError(.badInteger, at: start) }
        }
    }

    /// A zigzag-mapped signed integer.
    public mutating func readInt64() throws(BinaryRecordError) -> Int64 {
        let raw = try readUInt64()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    public mutating func readInt() throws(BinaryRecordError) -> Int {
        let start = offset
        let value = try readInt64()
        guard let int = Int(exactly: value) else { throw BinaryRecordError(.badInteger, at: start) }
        return int
    }

    public mutating func readBool() throws(BinaryRecordError) -> Bool {
        guard offset < bytes.count else { throw BinaryRecordError(.truncated, at: offset) }
        let byte = bytes[offset]
        guard byte <= 1 else { throw BinaryRecordError(.badBool, at: offset) }
        offset &+= 1
        return byte == 1
    }

    /// A length, checked against the bytes that remain before anything is read or allocated.
    private mutating func readLength() throws(BinaryRecordError) -> Int {
        let start = offset
        let length = try readUInt64()
        guard length <= UInt64(remaining) else { throw BinaryRecordError(.truncated, at: start) }
        return Int(length)
    }

    public mutating func readBytes() throws(BinaryRecordError) -> [UInt8] {
        let length = try readLength()
        let value = Array(bytes[offset..<(offset &+ length)])
        offset &+= length
        return value
    }

    /// Text that must be valid UTF-8 (an invalid sequence is refused, never repaired).
    public mutating func readString() throws(BinaryRecordError) -> String {
        let start = offset
        let length = try readLength()
        guard let text = String(validating: bytes[offset..<(offset &+ length)], as: UTF8.self) else {
            throw BinaryRecordError(.invalidUTF8, at: start)
        }
        offset &+= length
        return text
    }

    public mutating func readOptionalString() throws(BinaryRecordError) -> String? {
        try readBool() ? try readString() : nil
    }

    public mutating func readOptionalInt() throws(BinaryRecordError) -> Int? {
        try readBool() ? try readInt() : nil
    }

    /// A count of elements that take at least one byte each: larger than the bytes that
    /// remain means damage, refused before any storage is reserved.
    public mutating func readCount() throws(BinaryRecordError) -> Int {
        try readLength()
    }

    /// `writeArray`'s elements, each read by `element`.
    public mutating func readArray<Element>(_ element: (inout BinaryRecordReader) throws(BinaryRecordError) -> Element)
        throws(BinaryRecordError) -> [Element] {
        let count = try readCount()
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try element(&self)) }
        return elements
    }

    public mutating func readStrings() throws(BinaryRecordError) -> [String] {
        try readArray { reader throws(BinaryRecordError) in try reader.readString() }
    }

    /// `writeMap`'s entries. Keys must come in strictly ascending byte order, and no two may be
    /// equal as Swift strings (canonically equivalent spellings would collapse into one key).
    public mutating func readMap<Value>(_ value: (inout BinaryRecordReader) throws(BinaryRecordError) -> Value)
        throws(BinaryRecordError) -> [String: Value] {
        let count = try readCount()
        var map: [String: Value] = [:]
        map.reserveCapacity(count)
        var previous: String?
        for _ in 0..<count {
            let start = offset
            let key = try readString()
            if let previous, !previous.utf8Precedes(key) {
                throw BinaryRecordError(.unorderedKeys, at: start)
            }
            let entry = try value(&self)
            guard map.updateValue(entry, forKey: key) == nil else { throw BinaryRecordError(.unorderedKeys, at: start) }
            previous = key
        }
        return map
    }
}

/// Why bytes are not a record of the expected format, and where (a byte offset).
public struct BinaryRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// Another record kind or version (the first two bytes).
        case wrongFormat(tag: UInt8, version: UInt8)
        /// The bytes end inside a field, or a length or count exceeds what remains.
        case truncated
        /// A varint longer than ten bytes, past 64 bits, overlong, or out of `Int`'s range.
        case badInteger
        case badBool
        case invalidUTF8
        /// Map keys out of order or repeated.
        case unorderedKeys
        /// A field read fine but its value is not one the writer produces.
        case invalidValue(String)
        /// Bytes left after the last field.
        case trailingBytes
    }

    public let reason: Reason
    public let offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "\(reason) at byte \(offset)" }
}
