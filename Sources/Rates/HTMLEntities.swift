/// HTML character references in CoinDesk's `symbol` fields (`&#36;`, `&pound;`, `&euro;`,
/// `&#x20AC;`): decoded when a CoinDesk mirror is read, re-encoded when almanac speaks the
/// CoinDesk v1 format, so old clients that inject `symbol` into HTML keep working.
public enum HTMLEntities {
    /// The named references currency symbols use (HTML Living Standard, "Named character references").
    static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "cent": "¢", "pound": "£", "curren": "¤", "yen": "¥", "euro": "€", "dollar": "$",
        "fnof": "ƒ", "inr": "₹",
    ]

    /// Preferred names when encoding, matching what CoinDesk itself sent (`&pound;`, `&euro;`).
    static let preferredNames: [Unicode.Scalar: String] = [
        "£": "pound", "€": "euro", "¥": "yen", "¢": "cent",
    ]

    /// Decodes numeric (`&#36;`, `&#x20AC;`) and the named references above; anything else,
    /// including malformed or out-of-range references, is kept literally.
    public static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let afterAmp = rest[rest.index(after: amp)...]
            guard let semi = afterAmp.prefix(12).firstIndex(of: ";"),
                  let scalar = scalar(for: afterAmp[..<semi]) else {
                out.append("&")
                rest = afterAmp
                continue
            }
            out.unicodeScalars.append(scalar)
            rest = afterAmp[afterAmp.index(after: semi)...]
        }
        out += rest
        return out
    }

    private static func scalar(for reference: Substring) -> Unicode.Scalar? {
        if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
            return UInt32(reference.dropFirst(2), radix: 16).flatMap(validScalar)
        }
        if reference.hasPrefix("#") {
            return UInt32(reference.dropFirst(), radix: 10).flatMap(validScalar)
        }
        return named[String(reference)]
    }

    private static func validScalar(_ value: UInt32) -> Unicode.Scalar? {
        guard value != 0 else { return nil }
        return Unicode.Scalar(value)
    }

    /// Encodes a symbol the way CoinDesk did: `$` → `&#36;`, `£` → `&pound;`, `€` → `&euro;`,
    /// other non-alphanumeric or non-ASCII characters → `&#NNNN;`; ASCII letters, digits and
    /// spaces stay as they are (`CHF`, `R$` → `R&#36;`).
    public static func encode(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let name = preferredNames[scalar] {
                out += "&\(name);"
            } else if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == " " || scalar == "." {
                out.unicodeScalars.append(scalar)
            } else {
                out += "&#\(scalar.value);"
            }
        }
        return out
    }
}
