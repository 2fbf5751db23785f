/// ASCII case folding on bytes, for protocol text that is case-insensitive only in ASCII
/// (schemes, hosts, header tokens, media types, configuration names): no locale, no Unicode
/// folding, and a byte that is not an ASCII capital passes through unchanged, so a letter with
/// a combining mark never folds into something it is not.
public enum ASCIICase {
    /// `A`…`Z` → `a`…`z`; every other byte as it is.
    @inlinable
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// The text with its ASCII capitals lowered, byte by byte.
    @inlinable
    public static func lowercased<S: Sequence<UInt8>>(_ bytes: S) -> String {
        String(decoding: bytes.map(lowercased), as: UTF8.self)
    }
}

extension StringProtocol {
    /// Whether the text starts with `prefix` (lower-case ASCII), ASCII letters compared in any
    /// case, every other byte exactly.
    @inlinable
    public func hasASCIIPrefixIgnoringCase(_ prefix: String) -> Bool {
        var bytes = utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let b = bytes.next(), ASCIICase.lowercased(b) == expected else { return false }
        }
        return true
    }
}
