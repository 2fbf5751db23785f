/// Vets a cover's Content-Type before its bytes are served under almanac's own origin.
enum CoverMediaType {
    /// `image/jpeg; charset=x` → `image/jpeg`. nil unless it is a plain `image/<token>`; SVG is
    /// refused too, because it is a document that can carry script, not a picture.
    static func imageType(_ header: String?) -> String? {
        guard let header else { return nil }
        let type = String(header.prefix { $0 != ";" }).trimmingWhitespace().lowercased()
        guard type.hasPrefix("image/"), type != "image/svg+xml" else { return nil }
        let subtype = type.dropFirst("image/".count)
        let allowed = subtype.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        return allowed && !subtype.isEmpty ? type : nil
    }

    /// The header as it can safely appear in an error detail.
    static func shown(_ header: String?) -> String {
        guard let header else { return "(missing)" }
        let printable = header.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }
        return "'" + String(String.UnicodeScalarView(printable.prefix(60))) + "'"
    }
}
