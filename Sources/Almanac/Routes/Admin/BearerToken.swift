/// Checks `Authorization: Bearer <token>` (RFC 6750 §2.1) against the configured admin token.
enum BearerToken {
    /// The credentials of a `Bearer` authorization value; the scheme is case-insensitive.
    /// Read as bytes: a space followed by a combining mark is one `Character`, never `" "`.
    static func credentials(from header: String?) -> String? {
        guard let header else { return nil }
        let space = UInt8(ascii: " ")
        let trimmed = header.utf8.drop { $0 == space }
        let schemeLength = 7 // "bearer "
        guard trimmed.count > schemeLength,
              Substring(trimmed).hasASCIIPrefixIgnoringCase("bearer ") else { return nil }
        let token = trimmed.dropFirst(schemeLength).drop { $0 == space }
        let end = token.lastIndex { $0 != space }.map { token.index(after: $0) } ?? token.startIndex
        return String(decoding: token[..<end], as: UTF8.self)
    }

    /// Compares in time that depends only on the expected token's length: every byte of it is
    /// visited whatever the candidate holds, and the length difference is folded into the
    /// result instead of returning early, so timing reveals neither a matching prefix nor the
    /// token's length relative to the guess.
    static func matches(_ candidate: String, expected: String) -> Bool {
        let a = Array(candidate.utf8)
        let b = Array(expected.utf8)
        var difference = UInt64(truncatingIfNeeded: a.count ^ b.count)
        for i in 0..<b.count {
            let x = i < a.count ? a[i] : 0
            difference |= UInt64(x ^ b[i])
        }
        return difference == 0
    }
}
