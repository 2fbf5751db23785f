import Base
import Books
import HTTP1

/// The absolute cover links of the Google-compatible volumes answer, filled in per response.
///
/// The answer's bytes are rendered once, when the book is cached, but the link base depends
/// on the request (`PublicLinks`). So the stored rendering carries
/// `BooksRenderer.linkBasePlaceholder` (a NUL byte) where the base goes.
enum VolumesLinks {
    private static let marker = UInt8(ascii: BooksRenderer.linkBasePlaceholder.unicodeScalars.first ?? "\u{0}")

    /// True when `template` has links to fill (the book has a cover).
    static func hasLinks(_ template: [UInt8]) -> Bool { template.contains(marker) }

    /// `template` with every marker replaced by `base`, escaped as JSON string content.
    static func fill(_ template: [UInt8], base: String) -> [UInt8] {
        let escaped = Array(JSONText.quoted(base).utf8.dropFirst().dropLast())
        var out: [UInt8] = []
        out.reserveCapacity(template.count + 2 * escaped.count)
        for byte in template {
            if byte == marker { out.append(contentsOf: escaped) } else { out.append(byte) }
        }
        return out
    }
}
