import Base

/// Byte classes of the HTTP grammar, as bit tests on constant masks: no tables to
/// initialise lazily, no `Character` or `String` work on the hot path.
enum ParseByte {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let sp: UInt8 = 0x20
    static let htab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let comma: UInt8 = 0x2C
    static let semicolon: UInt8 = 0x3B
    static let equals: UInt8 = 0x3D
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C
    static let slash: UInt8 = 0x2F
    static let question: UInt8 = 0x3F

    /// `tchar` (RFC 9110 §5.6.2): "!#$%&'*+-.^_`|~", DIGIT and ALPHA, as a 128-bit mask
    /// (bytes 0-63 in `tcharLow`, 64-127 in `tcharHigh`; a unit test checks it against the list).
    static let tcharLow: UInt64 = 0x03FF_6CFA_0000_0000
    static let tcharHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    @inline(__always)
    static func isTchar(_ b: UInt8) -> Bool { isIn(b, low: tcharLow, high: tcharHigh) }

    /// Whether `b` is in an ASCII set given as a 128-bit mask (bytes 0-63 in `low`, 64-127 in
    /// `high`): one mask chosen by the byte's sixth bit, one shift, no branch per byte.
    @inline(__always)
    static func isIn(_ b: UInt8, low: UInt64, high: UInt64) -> Bool {
        let mask = b & 0x40 == 0 ? low : high
        return b < 128 && (mask >> UInt64(b & 63)) & 1 != 0
    }

    /// `OWS`/`BWS` member (RFC 9110 §5.6.3).
    @inline(__always)
    static func isWhitespace(_ b: UInt8) -> Bool { b == sp || b == htab }

    /// `field-vchar` or whitespace (RFC 9110 §5.5): every byte but the controls other than HTAB.
    /// obs-text (0x80-0xFF) is accepted and later decoded as UTF-8 with replacement.
    @inline(__always)
    static func isFieldValueByte(_ b: UInt8) -> Bool { (b >= 0x20 && b != 0x7F) || b == htab }

    /// VCHAR (RFC 5234 B.1): visible ASCII.
    @inline(__always)
    static func isVisible(_ b: UInt8) -> Bool { b >= 0x21 && b <= 0x7E }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    @inline(__always)
    static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: return Int(b - 0x30)
        case 0x41...0x46: return Int(b - 0x41 + 10)
        case 0x61...0x66: return Int(b - 0x61 + 10)
        default: return nil
        }
    }

    @inline(__always)
    static func lowercased(_ b: UInt8) -> UInt8 { ASCIICase.lowercased(b) }
}

/// A view of a byte range with the few helpers the grammar needs. A plain
/// `UnsafeBufferPointer` slice would do, but named helpers keep the parser readable.
struct ParseBytes {
    let base: UnsafeBufferPointer<UInt8>
    var start: Int
    var end: Int

    init(_ base: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        self.base = base
        self.start = start
        self.end = end
    }

    var isEmpty: Bool { start >= end }
    var count: Int { end - start }
    subscript(i: Int) -> UInt8 { base[i] }

    /// Without leading and trailing SP/HTAB (OWS, RFC 9110 §5.6.3).
    func trimmingWhitespace() -> ParseBytes {
        var s = start, e = end
        while s < e && ParseByte.isWhitespace(base[s]) { s += 1 }
        while e > s && ParseByte.isWhitespace(base[e - 1]) { e -= 1 }
        return ParseBytes(base, s, e)
    }

    /// ASCII case-insensitive comparison with a lowercase literal (read in place: no closure).
    @inline(__always)
    func equalsLowercase(_ literal: StaticString) -> Bool {
        guard literal.utf8CodeUnitCount == count else { return false }
        // A one-scalar literal may be stored as the scalar, without a pointer to read.
        guard literal.hasPointerRepresentation else {
            return literal.withUTF8Buffer { lit in
                for k in 0..<lit.count where ParseByte.lowercased(base[start &+ k]) != lit[k] { return false }
                return true
            }
        }
        let lit = literal.utf8Start
        var k = 0
        while k < count {
            if ParseByte.lowercased(base[start &+ k]) != lit[k] { return false }
            k &+= 1
        }
        return true
    }

    func allSatisfy(_ predicate: (UInt8) -> Bool) -> Bool {
        var i = start
        while i < end {
            if !predicate(base[i]) { return false }
            i += 1
        }
        return true
    }

    /// Whether every byte is `ParseByte.isFieldValueByte`, eight bytes at a time: a word with
    /// no control byte (below 0x20, or DEL) passes at once; only a word holding one (HTAB is
    /// allowed) is looked at byte by byte. Field values are most of a request head's bytes.
    func allFieldValueBytes() -> Bool {
        guard let raw = UnsafeRawPointer(base.baseAddress) else { return isEmpty }
        var i = start
        while i &+ 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if ByteSearch.marks(below: 0x20, in: word) | ByteSearch.marks(of: 0x7F, in: word) != 0 {
                for k in i..<(i &+ 8) where !ParseByte.isFieldValueByte(base[k]) { return false }
            }
            i &+= 8
        }
        while i < end {
            if !ParseByte.isFieldValueByte(base[i]) { return false }
            i &+= 1
        }
        return true
    }

    func firstIndex(of byte: UInt8) -> Int? {
        var i = start
        while i < end {
            if base[i] == byte { return i }
            i += 1
        }
        return nil
    }

    /// The comma-separated elements (RFC 9110 §5.6.1), each trimmed of OWS; empty ones kept
    /// so callers decide whether to ignore them.
    func forEachListElement(_ body: (ParseBytes) -> Void) {
        var s = start
        var i = start
        while i <= end {
            if i == end || base[i] == ParseByte.comma {
                body(ParseBytes(base, s, i).trimmingWhitespace())
                s = i + 1
            }
            i += 1
        }
    }

    /// The bytes as a `String`, invalid UTF-8 replaced with U+FFFD (as `String(decoding:as:)`
    /// does). Written in place: up to 15 bytes become a small string whose ASCII-ness is one
    /// mask test, where `String(decoding:)` ran its validation loop first (the target, and
    /// most field values, are short and ASCII).
    var string: String {
        let count = self.count
        guard count > 0, let source = base.baseAddress else { return "" }
        let from = source + start
        return String(unsafeUninitializedCapacity: count) { target in
            guard let into = target.baseAddress else { return 0 }
            into.initialize(from: from, count: count)
            return count
        }
    }
}
