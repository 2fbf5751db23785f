import Base

/// Writes bytes into memory the caller sized beforehand, with one copy per piece.
///
/// A response head is a dozen short pieces; appending them to an `Array` one by one paid a
/// capacity and uniqueness check (and, for `String.UTF8View`, a byte-by-byte copy) per piece,
/// about a fifth of the user-space work of a cached hit. The caller computes an upper bound
/// first (`ResponseHead.capacity`), so bounds are checked by a precondition, not per byte.
struct ByteWriter {
    private let base: UnsafeMutableRawPointer
    private let capacity: Int
    private(set) var count = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    @inline(__always)
    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(count + bytes.count <= capacity, "ByteWriter: head larger than its computed capacity")
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func write(_ literal: StaticString) {
        literal.withUTF8Buffer { write(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    mutating func write(_ string: String) {
        // Native and small strings are contiguous UTF-8: no copy of the String value.
        if string.utf8.withContiguousStorageIfAvailable({ write(UnsafeRawBufferPointer($0)) }) != nil { return }
        var copy = string
        copy.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    @inline(__always)
    mutating func write(byte: UInt8) {
        precondition(count < capacity, "ByteWriter: head larger than its computed capacity")
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Lets `body` write exactly `count` bytes in place (a value that formats itself, such as
    /// a generated request id, with no intermediate copy).
    @inline(__always)
    mutating func withUnsafeSpace(_ count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        precondition(self.count + count <= capacity, "ByteWriter: head larger than its computed capacity")
        body((base + self.count).assumingMemoryBound(to: UInt8.self))
        self.count += count
    }

    /// The bytes written since offset `start` (to check what was just copied, in place).
    @inline(__always)
    func written(from start: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + start, count: count - start)
    }

    /// The decimal digits of `value` (at most `ASCIIDecimal.maxBytes`, with a sign).
    @inline(__always)
    mutating func writeDecimal(_ value: Int) {
        ASCIIDecimal.withDigits(of: value) { write($0) }
    }
}
