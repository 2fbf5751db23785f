import Cache

/// Checks a `SharedCacheValue`'s byte form the way the shared layer will meet it: written by
/// one replica and read by another, or damaged in between. Returns findings (empty when every
/// check held), so a test states `#expect(findings.isEmpty)` and sees each broken case.
public enum SharedCacheValueProbe {
    /// `value` survives encode → decode equal, validator and cost included, and writes the
    /// same bytes again (the form is deterministic).
    public static func roundTripFindings<Value: SharedCacheValue & Equatable>(_ value: Value) -> [String] {
        let bytes = value.sharedCacheBytes
        guard let decoded = Value(sharedCacheBytes: bytes) else { return ["round trip: nil for \(describe(bytes))"] }
        var findings: [String] = []
        if decoded != value { findings.append("round trip: decoded value differs from \(value)") }
        if decoded.cacheValidator != value.cacheValidator {
            findings.append("round trip: validator \(decoded.cacheValidator) != \(value.cacheValidator)")
        }
        if decoded.cacheCost != value.cacheCost { findings.append("round trip: cost \(decoded.cacheCost) != \(value.cacheCost)") }
        if decoded.sharedCacheBytes != bytes { findings.append("round trip: re-encoded bytes differ") }
        return findings
    }

    /// Damages `value`'s bytes in `cases` random ways (bit flips, replaced, inserted and deleted
    /// bytes, overwritten runs) plus every truncation and every other tag and version byte.
    /// Truncations, appended bytes and another format are always nil; any other damage gives
    /// nil or a value that is self-consistent: it re-encodes to exactly the damaged bytes and
    /// reads back equal with the same validator. The process must not trap on any of it.
    public static func damageFindings<Value: SharedCacheValue & Equatable>(_ value: Value, cases: Int,
                                                                          random: inout SplitMix64) -> [String] {
        let bytes = value.sharedCacheBytes
        var findings: [String] = []
        for length in 0..<bytes.count where Value(sharedCacheBytes: Array(bytes[0..<length])) != nil {
            findings.append("truncated to \(length) of \(bytes.count) bytes: not nil")
        }
        if Value(sharedCacheBytes: bytes + [0]) != nil { findings.append("a trailing byte: not nil") }
        for header in 0..<min(2, bytes.count) {
            for other in 0...255 where other != Int(bytes[header]) {
                var changed = bytes
                changed[header] = UInt8(other)
                if Value(sharedCacheBytes: changed) != nil {
                    findings.append("\(header == 0 ? "tag" : "version") \(other): not nil")
                }
            }
        }
        guard bytes.count > 2 else { return findings }
        for n in 0..<cases {
            var damaged = bytes
            // Never the first two bytes: damage in the header is covered above.
            let at = 2 + Int(random.next() % UInt64(bytes.count - 2))
            switch random.next() % 5 {
            case 0: damaged[at] ^= UInt8(1) << UInt8(random.next() % 8)
            case 1: damaged[at] = UInt8(truncatingIfNeeded: random.next())
            case 2: damaged.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
            case 3: damaged.remove(at: at)
            default:
                let end = min(damaged.count, at + 1 + Int(random.next() % 16))
                for i in at..<end { damaged[i] = UInt8(truncatingIfNeeded: random.next()) }
            }
            if let finding = selfConsistencyFinding(Value.self, damaged) { findings.append("case \(n): \(finding)") }
        }
        return findings
    }

    /// nil when `bytes` read as nil, or as a value that writes `bytes` again and reads back
    /// equal with the same validator; otherwise what went wrong.
    public static func selfConsistencyFinding<Value: SharedCacheValue & Equatable>(_ type: Value.Type, _ bytes: [UInt8]) -> String? {
        guard let decoded = Value(sharedCacheBytes: bytes) else { return nil }
        let again = decoded.sharedCacheBytes
        guard again == bytes else { return "accepted \(describe(bytes)) but writes \(describe(again))" }
        guard let twice = Value(sharedCacheBytes: again), twice == decoded,
              twice.cacheValidator == decoded.cacheValidator else { return "accepted \(describe(bytes)) but does not read back equal" }
        return nil
    }

    static func describe(_ bytes: [UInt8]) -> String {
        let hex = bytes.prefix(48).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return "\(bytes.count) bytes \(hex)\(bytes.count > 48 ? "…" : "")"
    }
}
