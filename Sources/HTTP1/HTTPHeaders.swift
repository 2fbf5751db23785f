import Base

/// An ordered list of HTTP fields with case-insensitive name lookup (RFC 9110 §5.1).
///
/// Order is kept because it is observable (duplicate fields, `Set-Cookie`-like
/// lists) and because the parser must see every occurrence to reject conflicts.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public private(set) var fields: [Field]

    public init() { fields = [] }

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Takes `fields` as they are (the parser hands its array over without a copy).
    public init(fields: [Field]) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public var count: Int { fields.count }

    /// The first value of the field named `name` (case-insensitive), if any.
    public subscript(name: String) -> String? {
        for field in fields where field.name.equalsIgnoringASCIICase(name) {
            return field.value
        }
        return nil
    }

    /// Every value of the field named `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Room for `count` fields without reallocating (a handler that knows its fields).
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with a single one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(Field(name: name, value: value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

extension String {
    /// ASCII case-insensitive equality: field names and tokens are ASCII (RFC 9110 §5.1),
    /// so this avoids the cost and the locale traps of full Unicode case folding.
    @inlinable
    public func equalsIgnoringASCIICase(_ other: String) -> Bool {
        // Native strings know their UTF-8 length: most mismatches end here.
        guard self.utf8.count == other.utf8.count else { return false }
        // Names of one length usually differ in their first byte (`ETag` / `Date`,
        // `Content-Type` / `X-Request-ID`): folded with 0x20, bytes equal but for ASCII case
        // stay equal, so a difference here is final and no storage is touched.
        if let a = self.utf8.first, let b = other.utf8.first, a | 0x20 != b | 0x20 { return false }
        // Native and small strings are contiguous: compare the bytes in place.
        let contiguous = self.utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                for i in 0..<a.count where a[i] != b[i] {
                    if ASCIICase.lowercased(a[i]) != ASCIICase.lowercased(b[i]) { return false }
                }
                return true
            }
        }
        if let contiguous, let result = contiguous { return result }
        var a = self.utf8.makeIterator()
        var b = other.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case let (x?, y?):
                if x != y && ASCIICase.lowercased(x) != ASCIICase.lowercased(y) { return false }
            default: return false
            }
        }
    }
}

extension StringProtocol {
    /// Lower-cases ASCII letters only (header names, origins): no locale, no Unicode folding.
    public func asciiLowercased() -> String {
        ASCIICase.lowercased(utf8)
    }

    /// Without leading and trailing spaces and tabs (HTTP's OWS, RFC 9110 §5.6.3), found by
    /// bytes.
    public func trimmingASCIIWhitespace() -> Substring {
        let s = Substring(self)
        let start = s.utf8.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? s.utf8.endIndex
        let end = s.utf8.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { s.utf8.index(after: $0) } ?? start
        return start < end ? s[start..<end] : s[start..<start]
    }
}
