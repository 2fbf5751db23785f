import Base

/// What the shared layer (L2) stores under a cache key: a value's bytes plus everything every
/// replica needs to serve it identically — the key it was stored under, when it was stored,
/// when it stops being fresh, when it stops being servable at all (all Unix wall-clock
/// milliseconds, so they mean the same on every replica) and its validator (the `ETag`'s source).
///
/// Layout, version 3: a `BinaryRecordWriter` record (Base), tag `E`, the reader and writer
/// every value type uses too, so the envelope and the values it carries are checked by one
/// strict reader (shortest forms only, every length bounded by what is left, nothing after the
/// end):
///
///     field         encoding
///     tag, version  "E", 3
///     storedAt      zigzag varint, Unix ms, signed
///     expiresAt     zigzag varint, Unix ms, signed, ≥ storedAt
///     staleUntil    zigzag varint, Unix ms, signed, ≥ expiresAt
///     key           length-prefixed bytes (≤ 1024): namespace, ":", the key's bytes (`SharedCacheKey`)
///     validator     length-prefixed text (≤ 1024), visible ASCII
///     value         length-prefixed bytes (`SharedCacheValue.sharedCacheBytes`), the last field
///
/// Version 2 (a hand-read layout with fixed-width fields) added the key: a value copied (or
/// written by someone else) under another key is recognised as foreign whatever its value type
/// holds. Version 3 reads it through the shared record reader.
///
/// Decoding reads any bytes without trapping and answers nil for anything that is not a whole,
/// consistent version-3 envelope (another version, a truncated, damaged or over-long value, a
/// foreign key under our prefix): the shared layer then treats the entry as absent and loads it
/// again, which overwrites it. Another version is thus read as absent during a rolling upgrade,
/// and costs one upstream load per key, never a wrong answer.
public struct SharedEnvelope: Sendable, Equatable {
    public static let format = BinaryRecordFormat(tag: UInt8(ascii: "E"), version: 3)
    /// A longer key or validator is refused on both sides: ours are short (an ISBN, a history
    /// block's name; hex digests of 64 bytes).
    static let maxKeyBytes = 1_024
    static let maxValidatorBytes = 1_024

    public var storedAtMilliseconds: Int64
    public var expiresAtMilliseconds: Int64
    public var staleUntilMilliseconds: Int64
    /// `namespace:key`, the name the value was stored under (`SharedEnvelope.key(namespace:key:)`).
    public var key: [UInt8]
    public var validator: String
    public var value: [UInt8]

    public init(storedAtMilliseconds: Int64, expiresAtMilliseconds: Int64, staleUntilMilliseconds: Int64,
                key: [UInt8], validator: String, value: [UInt8]) {
        self.storedAtMilliseconds = storedAtMilliseconds
        self.expiresAtMilliseconds = expiresAtMilliseconds
        self.staleUntilMilliseconds = staleUntilMilliseconds
        self.key = key
        self.validator = validator
        self.value = value
    }

    /// The envelope's name for `key` of `namespace`.
    public static func key(namespace: String, key: [UInt8]) -> [UInt8] {
        Array(namespace.utf8) + [UInt8(ascii: ":")] + key
    }

    /// The encoded envelope, or nil when it cannot be written faithfully (key or validator too
    /// long, validator not visible ASCII, times out of order, value over 4 GiB).
    public var encoded: [UInt8]? {
        let validatorBytes = Array(validator.utf8)
        guard key.count <= Self.maxKeyBytes, validatorBytes.count <= Self.maxValidatorBytes,
              validatorBytes.allSatisfy(Self.isVisibleASCII), value.count <= Int(UInt32.max),
              storedAtMilliseconds <= expiresAtMilliseconds, expiresAtMilliseconds <= staleUntilMilliseconds else { return nil }
        var writer = BinaryRecordWriter(format: Self.format, capacity: 48 + key.count + validatorBytes.count + value.count)
        writer.write(storedAtMilliseconds)
        writer.write(expiresAtMilliseconds)
        writer.write(staleUntilMilliseconds)
        writer.write(bytes: key)
        writer.write(validator)
        writer.write(bytes: value)
        return writer.bytes
    }

    /// Reads an envelope; nil for anything but a complete, consistent version-3 envelope whose
    /// fields end exactly at the end of the bytes and whose validator is visible ASCII.
    public init?(decoding bytes: [UInt8]) {
        guard let envelope = BinaryRecordReader.read(bytes, format: Self.format, { reader throws(BinaryRecordError) in
            let stored = try reader.readInt64(), expires = try reader.readInt64(), staleUntil = try reader.readInt64()
            guard stored <= expires, expires <= staleUntil else { throw reader.invalid("times out of order") }
            let key = try reader.readBytes()
            guard key.count <= Self.maxKeyBytes else { throw reader.invalid("key length") }
            let validator = try reader.readString()
            guard validator.utf8.count <= Self.maxValidatorBytes, validator.utf8.allSatisfy(Self.isVisibleASCII) else {
                throw reader.invalid("validator")
            }
            let value = try reader.readBytes()
            return SharedEnvelope(storedAtMilliseconds: stored, expiresAtMilliseconds: expires, staleUntilMilliseconds: staleUntil,
                                  key: key, validator: validator, value: value)
        }) else { return nil }
        self = envelope
    }

    /// A byte a header may carry as it is: `!` to `~` (no space, no control byte, no non-ASCII).
    @inline(__always)
    public static func isVisibleASCII(_ byte: UInt8) -> Bool { byte >= 0x21 && byte <= 0x7E }
}
