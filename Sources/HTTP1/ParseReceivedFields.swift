/// Where one field line's name and value lie in the header section's bytes, as offsets from
/// the section's first byte (the value already trimmed of OWS).
struct FieldSpan: Equatable {
    var nameStart: Int
    var nameEnd: Int
    var valueStart: Int
    var valueEnd: Int
}

/// The header fields of a received request as the parser checked them: the field lines' bytes
/// in one block, with where each name and value lies, and no `String` made until one is asked
/// for.
///
/// A cached hit reads a few fields by name and most of them not at all: building a `String`
/// name and value per field (UTF-8 validation, an array of them, their release afterwards) was a
/// fifth of the parser's work. Here a request's fields cost one allocation and one copy of the
/// bytes; a lookup compares names as bytes (ASCII case-insensitively, as
/// `String.equalsIgnoringASCIICase` does) and makes only the matching value. What is made is
/// exactly what the parser made before: the name as a `CommonTokens` literal or decoded, the
/// value decoded as UTF-8 with replacement (obs-text).
///
/// One allocation (`Block`): the counts, then one `FieldSpan` per field, then the section's
/// bytes. `@unchecked Sendable` because `ManagedBuffer` is not: the block is written once, in
/// `init`, before any other code can see it, and only read afterwards, so copies of a request
/// on other threads read the same immutable bytes.
struct ReceivedFields: @unchecked Sendable {
    final class Block: ManagedBuffer<Counts, FieldSpan> {}

    struct Counts {
        /// Field lines (spans).
        let fields: Int
        /// Bytes of the section kept after the spans.
        let bytes: Int
    }

    private let block: Block

    /// `spans` and `section`, the bytes they point into, in one block.
    init(section: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<FieldSpan>) {
        let stride = MemoryLayout<FieldSpan>.stride
        let byteSlots = (section.count + stride - 1) / stride
        let made = Block.create(minimumCapacity: spans.count + byteSlots) { _ in
            Counts(fields: spans.count, bytes: section.count)
        }
        made.withUnsafeMutablePointerToElements { tail in
            if let base = spans.baseAddress { tail.initialize(from: base, count: spans.count) }
            if let base = section.baseAddress, !section.isEmpty {
                UnsafeMutableRawPointer(tail + spans.count).copyMemory(from: base, byteCount: section.count)
            }
        }
        // `create` is declared to return the base class; it made an instance of `Block`.
        block = unsafeDowncast(made, to: Block.self)
    }

    var count: Int { block.header.fields }

    /// Calls `body` with the spans and the section's bytes they point into, valid inside `body` only.
    @inline(__always)
    private func withSpans<R>(_ body: (UnsafeBufferPointer<FieldSpan>, UnsafeBufferPointer<UInt8>) -> R) -> R {
        block.withUnsafeMutablePointers { counts, tail in
            let fields = counts.pointee.fields
            let bytes = UnsafeRawPointer(tail + fields).assumingMemoryBound(to: UInt8.self)
            return body(UnsafeBufferPointer(start: tail, count: fields),
                        UnsafeBufferPointer(start: bytes, count: counts.pointee.bytes))
        }
    }

    /// The name and value bytes of field `index` (`0..<count`), valid inside `body` only.
    @inline(__always)
    func withField<R>(_ index: Int, _ body: (ParseBytes, ParseBytes) -> R) -> R {
        withSpans { spans, section in
            let span = spans[index]
            return body(ParseBytes(section, span.nameStart, span.nameEnd), ParseBytes(section, span.valueStart, span.valueEnd))
        }
    }

    /// Field `index` as the `HTTPHeaders.Field` the parser used to make eagerly.
    func field(_ index: Int) -> HTTPHeaders.Field {
        withField(index) { name, value in
            HTTPHeaders.Field(name: CommonTokens.fieldName(name) ?? name.string, value: value.string)
        }
    }

    /// Every field, in the order received.
    var fields: [HTTPHeaders.Field] {
        var all: [HTTPHeaders.Field] = []
        all.reserveCapacity(count)
        for index in 0..<count { all.append(field(index)) }
        return all
    }

    /// The index of the first field at or after `from` named `wanted` (ASCII case-insensitive),
    /// or -1. Names are compared in place, length first; no closure is kept and nothing retained.
    private func index(named wanted: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        block.withUnsafeMutablePointers { counts, tail in
            let fields = counts.pointee.fields
            let section = UnsafeBufferPointer(start: UnsafeRawPointer(tail + fields).assumingMemoryBound(to: UInt8.self),
                                              count: counts.pointee.bytes)
            var index = from
            while index < fields {
                let span = tail[index]
                if span.nameEnd &- span.nameStart == wanted.count
                    && ParseBytes(section, span.nameStart, span.nameEnd).equalsIgnoringASCIICase(wanted) {
                    return index
                }
                index &+= 1
            }
            return -1
        }
    }

    /// `index(named:from:)` for a `String` name (read in place when it is contiguous, as
    /// literals and native strings are).
    private func index(named name: String, from: Int) -> Int {
        if let found = name.utf8.withContiguousStorageIfAvailable({ index(named: $0, from: from) }) {
            return found
        }
        return Array(name.utf8).withUnsafeBufferPointer { index(named: $0, from: from) }
    }

    /// The value of field `index` as a `String` (decoded with replacement, as before).
    func value(_ index: Int) -> String {
        withField(index) { _, value in value.string }
    }

    /// The first value of a field named `name`, if any.
    func firstValue(named name: String) -> String? {
        let found = index(named: name, from: 0)
        return found < 0 ? nil : value(found)
    }

    /// Appends the value of every field named `name` to `values`, in order.
    func appendValues(named name: String, to values: inout [String]) {
        var found = index(named: name, from: 0)
        while found >= 0 {
            values.append(value(found))
            found = index(named: name, from: found + 1)
        }
    }

    /// Whether a field named `name` was received.
    func contains(named name: String) -> Bool {
        index(named: name, from: 0) >= 0
    }
}

extension ParseBytes {
    /// ASCII case-insensitive equality with `other`: bytes equal, or equal once ASCII capitals
    /// are lowered (what `String.equalsIgnoringASCIICase` answers for the same text).
    func equalsIgnoringASCIICase(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard other.count == count else { return false }
        var k = 0
        while k < other.count {
            let a = base[start &+ k], b = other[k]
            if a != b && ParseByte.lowercased(a) != ParseByte.lowercased(b) { return false }
            k &+= 1
        }
        return true
    }
}
