import Base
/// Vets a cover's Content-Type before its bytes are served under almanac's own origin.
enum CoverMediaType {
    /// `image/jpeg; charset=x` → `image/jpeg`. nil unless it is a plain `image/<token>`; SVG is
    /// refused too, because it is a document that can carry script, not a picture.
    ///
    /// Read as bytes (the upstream's header is untrusted text): only ASCII letters, digits and
    /// `+-.` may follow `image/`, so a letter with a combining mark is refused, never folded.
    static func imageType(_ header: String?) -> String? {
        guard let header else { return nil }
        let trimmed = String(decoding: header.utf8.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self).trimmingWhitespace()
        let type = trimmed.utf8.map(ASCIICase.lowercased)
        let prefix = Array("image/".utf8)
        guard type.starts(with: prefix), !type.elementsEqual("image/svg+xml".utf8) else { return nil }
        let subtype = type.dropFirst(prefix.count)
        let allowed = subtype.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
        return allowed && !subtype.isEmpty ? String(decoding: type, as: UTF8.self) : nil
    }

    /// The header as it can safely appear in an error detail.
    static func shown(_ header: String?) -> String {
        guard let header else { return "(missing)" }
        let printable = header.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }
        return "'" + String(String.UnicodeScalarView(printable.prefix(60))) + "'"
    }
}
