import Base
/// Decides what a cover is before its bytes are served under almanac's own origin.
enum CoverMediaType {
    /// The image types a cover may be served as, each with the signature its bytes start with.
    /// The body decides, never the upstream's `Content-Type`: a label costs nothing to forge,
    /// and an SVG (a document that can carry script) or an HTML page labelled `image/png` must
    /// not be served, even with `nosniff`, from almanac's origin.
    static let signatures: [(type: String, prefix: [UInt8])] = [
        ("image/jpeg", [0xFF, 0xD8, 0xFF]),
        ("image/png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        ("image/gif", Array("GIF87a".utf8)),
        ("image/gif", Array("GIF89a".utf8)),
    ]

    /// `image/jpeg`, `image/png`, `image/gif` or `image/webp` when `body` starts with that
    /// format's magic bytes (WebP: `RIFF`, a 4-byte size, `WEBP`); nil for anything else.
    static func sniffed(_ body: [UInt8]) -> String? {
        if let match = signatures.first(where: { body.starts(with: $0.prefix) }) { return match.type }
        if body.count >= 12, body.starts(with: Array("RIFF".utf8)), body[8..<12].elementsEqual("WEBP".utf8) {
            return "image/webp"
        }
        return nil
    }

    /// `image/jpeg; charset=x` → `image/jpeg`. nil unless it is a plain `image/<token>`; SVG is
    /// refused too, because it is a document that can carry script, not a picture. Used on
    /// stored records' types; a fetched cover's type comes from `sniffed`.
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
