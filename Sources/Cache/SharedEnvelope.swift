/// What the shared layer (L2) stores under a cache key: a value's bytes plus everything every
/// replica needs to serve it identically — when it was stored, when it stops being fresh, when
/// it stops being servable at all (all Unix wall-clock milliseconds, so they mean the same on
/// every replica) and its validator (the `ETag`'s source).
///
/// Layout, version 1 (integers big-endian):
///
///     offset  size  field
///     0       2     magic "AC" (0x41 0x43)
///     2       1     format version (1)
///     3       8     storedAt     Unix ms, signed
///     11      8     expiresAt    Unix ms, signed, ≥ storedAt
///     19      8     staleUntil   Unix ms, signed, ≥ expiresAt
///     27      2     validator length V (≤ 1024)
///     29      V     validator, UTF-8
///     29+V    …     value bytes (`SharedCacheValue.sharedCacheBytes`), to the end
///
/// Decoding reads any bytes without trapping and answers nil for anything that is not a whole,
/// consistent version-1 envelope (another version, a truncated or damaged value, a foreign key
/// under our prefix): the shared layer then treats the entry as absent and loads it again,
/// which overwrites it. A future version 2 is thus read as absent by version-1 replicas during a
/// rolling upgrade, and costs one upstream load per key, never a wrong answer.
public struct SharedEnvelope: Sendable, Equatable {
    public static let version: UInt8 = 1
    static let magic: [UInt8] = [0x41, 0x43]
    /// Bytes before the validator.
    static let headerBytes = 29
    /// A longer validator is refused on both sides: ours are hex digests (64 bytes).
    static let maxValidatorBytes = 1_024

    public var storedAtMilliseconds: Int64
    public var expiresAtMilliseconds: Int64
    public var staleUntilMilliseconds: Int64
    public var validator: String
    public var value: [UInt8]

    public init(storedAtMilliseconds: Int64, expiresAtMilliseconds: Int64, staleUntilMilliseconds: Int64,
                validator: String, value: [UInt8]) {
        self.storedAtMilliseconds = storedAtMilliseconds
        self.expiresAtMilliseconds = expiresAtMilliseconds
        self.staleUntilMilliseconds = staleUntilMilliseconds
        self.validator = validator
        self.value = value
    }

    /// The encoded envelope, or nil when it cannot be written faithfully (validator too long,
    /// times out of order).
    public var encoded: [UInt8]? {
        let validatorBytes = Array(validator.utf8)
        guard validatorBytes.count <= Self.maxValidatorBytes, storedAtMilliseconds <= expiresAtMilliseconds,
              expiresAtMilliseconds <= staleUntilMilliseconds else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(Self.headerBytes + validatorBytes.count + value.count)
        out += Self.magic
        out.append(Self.version)
        for time in [storedAtMilliseconds, expiresAtMilliseconds, staleUntilMilliseconds] {
            let bits = UInt64(bitPattern: time)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        }
        out.append(UInt8(truncatingIfNeeded: validatorBytes.count >> 8))
        out.append(UInt8(truncatingIfNeeded: validatorBytes.count))
        out += validatorBytes
        out += value
        return out
    }

    /// Reads an envelope; nil for anything but a complete, consistent version-1 envelope.
    public init?(decoding bytes: [UInt8]) {
        guard bytes.count >= Self.headerBytes, bytes[0] == Self.magic[0], bytes[1] == Self.magic[1],
              bytes[2] == Self.version else { return nil }
        func int64(at offset: Int) -> Int64 {
            var bits: UInt64 = 0
            for i in offset..<offset + 8 { bits = bits << 8 | UInt64(bytes[i]) }
            return Int64(bitPattern: bits)
        }
        let stored = int64(at: 3), expires = int64(at: 11), staleUntil = int64(at: 19)
        let validatorCount = Int(bytes[27]) << 8 | Int(bytes[28])
        guard stored <= expires, expires <= staleUntil, validatorCount <= Self.maxValidatorBytes,
              bytes.count - Self.headerBytes >= validatorCount else { return nil }
        let validatorEnd = Self.headerBytes + validatorCount
        guard let validator = String(validating: bytes[Self.headerBytes..<validatorEnd], as: UTF8.self) else { return nil }
        self.init(storedAtMilliseconds: stored, expiresAtMilliseconds: expires, staleUntilMilliseconds: staleUntil,
                  validator: validator, value: Array(bytes[validatorEnd...]))
    }
}
