/// A W3C Trace Context `traceparent` header as a caller sent it: which trace the request belongs
/// to, and which of the caller's spans made it.
///
/// Parsed by the spec's rules and nothing looser, because a malformed value is not an error for
/// the client (the request simply starts a new trace) and must never reach a log line or an
/// upstream request. The ids are kept as integers: parsing allocates nothing, and the hex text
/// is written only where a log line or an upstream header needs it.
public struct TraceParent: Sendable, Equatable {
    /// The 128-bit trace id, high and low halves (never both zero).
    public var traceIDHigh: UInt64
    public var traceIDLow: UInt64
    /// The caller's span id (never zero).
    public var parentID: UInt64
    /// Trace flags; bit 0 is `sampled`, the only flag version 00 defines.
    public var flags: UInt8

    public init(traceIDHigh: UInt64, traceIDLow: UInt64, parentID: UInt64, flags: UInt8) {
        self.traceIDHigh = traceIDHigh
        self.traceIDLow = traceIDLow
        self.parentID = parentID
        self.flags = flags
    }

    /// The flags almanac passes on: only `sampled`, since a version 00 sender must send the
    /// other bits as zero, whatever a newer caller set.
    public var propagatedFlags: UInt8 { flags & 0x01 }

    /// `version "-" trace-id "-" parent-id "-" trace-flags`: 2, 32, 16 and 2 lowercase hex digits.
    static let version00Length = 55

    /// The value of one `traceparent` header, or nil when it is not one the spec accepts:
    /// - the version is two lowercase hex digits and not `ff`;
    /// - version `00` is exactly 55 characters;
    /// - a later version is parsed as 00 in its first 55 characters, which must be followed by
    ///   nothing or by `-` (what comes after belongs to that version and is ignored);
    /// - trace id and parent id are lowercase hex and not all zeros; the flags are lowercase hex.
    /// Surrounding optional whitespace is the HTTP parser's to strip; anything else is refused.
    public static func parse(_ value: String) -> TraceParent? {
        var value = value
        return value.withUTF8 { parse(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `parse(_:)` over the header's bytes.
    public static func parse(bytes: UnsafeRawBufferPointer) -> TraceParent? {
        guard bytes.count >= version00Length else { return nil }
        guard let version = hexByte(bytes, at: 0), version != 0xFF, bytes[2] == UInt8(ascii: "-") else { return nil }
        if version == 0 {
            guard bytes.count == version00Length else { return nil }
        } else if bytes.count > version00Length {
            guard bytes[version00Length] == UInt8(ascii: "-") else { return nil }
        }
        guard bytes[35] == UInt8(ascii: "-"), bytes[52] == UInt8(ascii: "-"),
              let high = hex64(bytes, at: 3), let low = hex64(bytes, at: 19),
              let parent = hex64(bytes, at: 36), let flags = hexByte(bytes, at: 53) else { return nil }
        guard high != 0 || low != 0, parent != 0 else { return nil }
        return TraceParent(traceIDHigh: high, traceIDLow: low, parentID: parent, flags: flags)
    }

    /// The value of a lowercase hex digit (`0-9`, `a-f`; uppercase is not allowed), or nil.
    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt64(byte &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt64(byte &- UInt8(ascii: "a") &+ 10)
        default: return nil
        }
    }

    static func hexByte(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt8? {
        guard let high = hexDigit(bytes[offset]), let low = hexDigit(bytes[offset + 1]) else { return nil }
        return UInt8(truncatingIfNeeded: high << 4 | low)
    }

    static func hex64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64? {
        var value: UInt64 = 0
        for i in offset..<offset + 16 {
            guard let digit = hexDigit(bytes[i]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }
}
