/// What the shared layer (L2) stores under a cache key: a value's bytes plus everything every
/// replica needs to serve it identically — the key it was stored under, when it was stored,
/// when it stops being fresh, when it stops being servable at all (all Unix wall-clock
/// milliseconds, so they mean the same on every replica) and its validator (the `ETag`'s source).
///
/// Layout, version 2 (integers big-endian):
///
///     offset    size  field
///     0         2     magic "AC" (0x41 0x43)
///     2         1     format version (2)
///     3         8     storedAt     Unix ms, signed
///     11        8     expiresAt    Unix ms, signed, ≥ storedAt
///     19        8     staleUntil   Unix ms, signed, ≥ expiresAt
///     27        2     key length K (≤ 1024)
///     29        K     key: namespace, ":", the key's bytes (`SharedCacheKey`)
///     29+K      2     validator length V (≤ 1024)
///     31+K      V     validator, visible ASCII
///     31+K+V    4     value length N
///     35+K+V    N     value bytes (`SharedCacheValue.sharedCacheBytes`); nothing after them
///
/// Version 2 added the key: a value copied (or written by someone else) under another key is
/// recognised as foreign whatever its value type holds.
///
/// Decoding reads any bytes without trapping and answers nil for anything that is not a whole,
/// consistent version-2 envelope (another version, a truncated, damaged or over-long value, a
/// foreign key under our prefix): the shared layer then treats the entry as absent and loads it
/// again, which overwrites it. Another version is thus read as absent during a rolling upgrade,
/// and costs one upstream load per key, never a wrong answer.
public struct SharedEnvelope: Sendable, Equatable {
    public static let version: UInt8 = 2
    static let magic: [UInt8] = [0x41, 0x43]
    /// Bytes before the key.
    static let headerBytes = 29
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
        var out: [UInt8] = []
        out.reserveCapacity(Self.headerBytes + 8 + key.count + validatorBytes.count + value.count)
        out += Self.magic
        out.append(Self.version)
        for time in [storedAtMilliseconds, expiresAtMilliseconds, staleUntilMilliseconds] {
            let bits = UInt64(bitPattern: time)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        }
        out.append(UInt8(truncatingIfNeeded: key.count >> 8))
        out.append(UInt8(truncatingIfNeeded: key.count))
        out += key
        out.append(UInt8(truncatingIfNeeded: validatorBytes.count >> 8))
        out.append(UInt8(truncatingIfNeeded: validatorBytes.count))
        out += validatorBytes
        for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value.count >> shift)) }
        out += value
        return out
    }

    /// Reads an envelope; nil for anything but a complete, consistent version-2 envelope whose
    /// lengths add up to exactly the bytes given and whose validator is visible ASCII.
    public init?(decoding bytes: [UInt8]) {
        guard bytes.count >= Self.headerBytes, bytes[0] == Self.magic[0], bytes[1] == Self.magic[1],
              bytes[2] == Self.version else { return nil }
        var offset = 3
        /// The next `count` bytes as a big-endian unsigned number, or nil past the end.
        func number(_ count: Int) -> UInt64? {
            guard bytes.count - offset >= count else { return nil }
            var bits: UInt64 = 0
            for i in offset..<offset + count { bits = bits << 8 | UInt64(bytes[i]) }
            offset += count
            return bits
        }
        /// The next `count` bytes, or nil past the end.
        func slice(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
        guard let stored = number(8).map(Int64.init(bitPattern:)), let expires = number(8).map(Int64.init(bitPattern:)),
              let staleUntil = number(8).map(Int64.init(bitPattern:)), stored <= expires, expires <= staleUntil,
              let keyCount = number(2), keyCount <= Self.maxKeyBytes, let key = slice(Int(keyCount)),
              let validatorCount = number(2), validatorCount <= Self.maxValidatorBytes,
              let validatorBytes = slice(Int(validatorCount)), validatorBytes.allSatisfy(Self.isVisibleASCII),
              let valueCount = number(4), bytes.count - offset == Int(valueCount),
              let value = slice(Int(valueCount)) else { return nil }
        self.init(storedAtMilliseconds: stored, expiresAtMilliseconds: expires, staleUntilMilliseconds: staleUntil,
                  key: Array(key), validator: String(decoding: validatorBytes, as: UTF8.self), value: Array(value))
    }

    /// A byte a header may carry as it is: `!` to `~` (no space, no control byte, no non-ASCII).
    @inline(__always)
    public static func isVisibleASCII(_ byte: UInt8) -> Bool { byte >= 0x21 && byte <= 0x7E }
}
