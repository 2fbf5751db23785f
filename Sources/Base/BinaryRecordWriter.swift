/// Writes one compact, self-delimiting binary record: the format's tag and version, then
/// fields in an order both sides know, each read back by the matching `BinaryRecordReader`
/// call. How cached values travel between replicas (the cache's shared layer).
///
/// The encoding, chosen for exactness first and size second:
/// - integers are LEB128 varints (7 bits a byte, least significant first); signed ones are
///   zigzag-mapped first, so small negative numbers stay short. Day numbers, counts and
///   fixed-point prices take 2–5 bytes instead of 8.
/// - text is a varint byte count then the UTF-8 bytes; byte strings the same.
/// - an optional is one byte, 0 (absent) or 1 (present), then the value.
/// - a map is a count, then its entries in ascending order of the keys' UTF-8 bytes, so one
///   value always gives the same bytes, in every replica (Swift's dictionary order is not
///   stable between processes).
/// Nothing goes through Foundation's encoders: decimals are written as their canonical text
/// by the caller (exact, unlike `JSONEncoder`'s `Decimal`, which passes through `Double`).
public struct BinaryRecordWriter: Sendable {
    public private(set) var bytes: [UInt8]

    /// Starts a record of `format`; `capacity` is a hint for the final size.
    public init(format: BinaryRecordFormat, capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(max(2, capacity))
        bytes.append(format.tag)
        bytes.append(format.version)
    }

    /// An unsigned varint.
    public mutating func write(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    /// A signed integer, zigzag-mapped (0, -1, 1, -2… → 0, 1, 2, 3…) then as a varint.
    public mutating func write(_ value: Int64) {
        write(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func write(_ value: Int) {
        write(Int64(value))
    }

    /// One byte, 0 or 1.
    public mutating func write(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    /// The UTF-8 byte count, then the bytes.
    public mutating func write(_ text: String) {
        write(UInt64(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    /// The byte count, then the bytes.
    public mutating func write(bytes value: [UInt8]) {
        write(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// 0 for nil, else 1 and the text.
    public mutating func write(optional text: String?) {
        write(text != nil)
        if let text { write(text) }
    }

    /// 0 for nil, else 1 and the integer.
    public mutating func write(optional value: Int?) {
        write(value != nil)
        if let value { write(value) }
    }

    /// The count, then each element as `element` writes it (at least one byte each, which
    /// `BinaryRecordReader.readArray` relies on to bound the count).
    public mutating func writeArray<Element>(_ elements: [Element], _ element: (inout BinaryRecordWriter, Element) -> Void) {
        write(UInt64(elements.count))
        for value in elements { element(&self, value) }
    }

    /// The count, then each text.
    public mutating func write(_ texts: [String]) {
        writeArray(texts) { $0.write($1) }
    }

    /// The count, then key and value of each entry in ascending order of the keys' UTF-8
    /// bytes: equal maps give equal bytes.
    public mutating func writeMap<Value>(_ map: [String: Value], _ value: (inout BinaryRecordWriter, Value) -> Void) {
        write(UInt64(map.count))
        for (key, entry) in map.sortedByUTF8Key() {
            write(key)
            value(&self, entry)
        }
    }
}
