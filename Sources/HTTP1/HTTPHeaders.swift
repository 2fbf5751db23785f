import Base

/// An ordered list of HTTP fields with case-insensitive name lookup (RFC 9110 §5.1).
///
/// Order is kept because it is observable (duplicate fields, `Set-Cookie`-like
/// lists) and because the parser must see every occurrence to reject conflicts.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Fields prepared once and shared (`PreparedHeaderLines`), written before `own`.
    ///
    /// The optional stored properties here are spelled `Optional<…>`: a `T?` property has an
    /// implicit initial `nil`, and an init that then assigns it made the optimizer build the
    /// value in a local and copy it out (see `HTTPResponse.representation`).
    public private(set) var prepared: Optional<PreparedHeaderLines>
    /// A received request's fields as the parser checked them, kept as bytes until read
    /// (`ReceivedFields`); they come before `own`. A value has prepared or received fields,
    /// never both (one is a response's, the other a request's).
    private var received: Optional<ReceivedFields>
    /// Fields of this value alone, after the prepared or received ones.
    private var own: [Field]
    /// Fields prepared once and shared, written after `own`: what a step adds last whatever the
    /// response (CORS's constant fields for any origin), so a hit copies them as one block
    /// instead of adding, checking and freeing two fields per request.
    public private(set) var preparedTail: Optional<PreparedHeaderLines>

    /// Every field in order: the prepared or received ones, this value's own, then the
    /// prepared tail.
    public var fields: [Field] {
        if prepared == nil && received == nil && preparedTail == nil { return own }
        var all = prepared?.fields ?? received?.fields ?? []
        all += own
        if let preparedTail { all += preparedTail.fields }
        return all
    }

    /// Whether `ownFields` has any (a hit's answer has none: its fields are all in blocks).
    @inline(__always)
    var hasOwnFields: Bool { received != nil || !own.isEmpty }

    /// The fields between the blocks the head writer copies as they are (prepared before, the
    /// tail after): what it serializes itself.
    var ownFields: [Field] {
        guard let received else { return own }
        return received.fields + own
    }

    public init() { self.init(prepared: nil, received: nil, own: []) }

    public init(_ pairs: [(String, String)]) {
        self.init(prepared: nil, received: nil, own: pairs.map { Field(name: $0.0, value: $0.1) })
    }

    /// Takes `fields` as they are (no copy of the array).
    public init(fields: [Field]) {
        self.init(prepared: nil, received: nil, own: fields)
    }

    /// The fields of a request the parser received, read from their bytes when asked.
    init(received: ReceivedFields?) {
        self.init(prepared: nil, received: received, own: [])
    }

    /// The prepared fields, with room for `capacity` more of this value's own (none reserved
    /// for 0: a hit that adds nothing of its own allocates nothing).
    public init(prepared: PreparedHeaderLines, reservingCapacity capacity: Int = 0) {
        var own: [Field] = []
        if capacity > 0 { own.reserveCapacity(capacity) }
        self.init(prepared: prepared, received: nil, own: own)
    }

    /// Every stored property set once, in one place.
    private init(prepared: PreparedHeaderLines?, received: ReceivedFields?, own: [Field]) {
        self.prepared = prepared
        self.received = received
        self.own = own
        self.preparedTail = nil
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool { lhs.fields == rhs.fields }

    /// No fields at all (cheaper than `count == 0`, which counts the blocks' fields).
    public var isEmpty: Bool { prepared == nil && received == nil && own.isEmpty && preparedTail == nil }

    public var count: Int {
        (prepared?.fields.count ?? 0) + (received?.count ?? 0) + own.count + (preparedTail?.fields.count ?? 0)
    }

    /// The first value of the field named `name` (case-insensitive), if any.
    public subscript(name: String) -> String? {
        if let prepared {
            for field in prepared.fields where field.name.equalsIgnoringASCIICase(name) {
                return field.value
            }
        }
        // Read through the optional, not bound: binding retained the block for the lookup.
        if let value = received?.firstValue(named: name) {
            return value
        }
        for field in own where field.name.equalsIgnoringASCIICase(name) {
            return field.value
        }
        if let preparedTail {
            for field in preparedTail.fields where field.name.equalsIgnoringASCIICase(name) {
                return field.value
            }
        }
        return nil
    }

    /// Every value of the field named `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        func appendMatching(_ fields: [Field]) {
            for field in fields where field.name.equalsIgnoringASCIICase(name) { values.append(field.value) }
        }
        if let prepared { appendMatching(prepared.fields) }
        received?.appendValues(named: name, to: &values)
        appendMatching(own)
        if let preparedTail { appendMatching(preparedTail.fields) }
        return values
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Room for `count` fields without reallocating (a handler that knows its fields).
    public mutating func reserveCapacity(_ count: Int) { own.reserveCapacity(count) }

    /// Appends a field, keeping any existing ones of the same name (after a prepared tail, which
    /// becomes this value's own fields first, so the order stays the order of the calls).
    public mutating func add(_ name: String, _ value: String) {
        dissolveTail()
        own.append(Field(name: name, value: value))
    }

    /// Appends prepared fields after every field so far (as one block while nothing follows it).
    public mutating func append(prepared lines: PreparedHeaderLines) {
        if preparedTail == nil {
            preparedTail = lines
        } else {
            dissolveTail()
            own.append(contentsOf: lines.fields)
        }
    }

    /// Replaces every field named `name` with a single one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name`. A prepared or received field is never changed in
    /// place: the block holding it is dissolved into this value's own fields first.
    public mutating func remove(_ name: String) {
        if let prepared, prepared.fields.contains(where: { $0.name.equalsIgnoringASCIICase(name) }) {
            own = prepared.fields + own
            self.prepared = nil
        }
        if let received, received.contains(named: name) {
            own = received.fields + own
            self.received = nil
        }
        if let preparedTail, preparedTail.fields.contains(where: { $0.name.equalsIgnoringASCIICase(name) }) {
            dissolveTail()
        }
        own.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Moves the prepared tail's fields into this value's own, at the end.
    private mutating func dissolveTail() {
        guard let preparedTail else { return }
        own.append(contentsOf: preparedTail.fields)
        self.preparedTail = nil
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
