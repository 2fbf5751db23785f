import Base
import Foundation
import HTTPServer

/// Removes secrets from text before it is logged: the configured secrets themselves (admin
/// token, Google API key) wherever they appear, the values of secret-looking query
/// parameters in any URL (`key=`, `token=`, `apiKey=`, …), and credentials after
/// `Authorization:` or `Bearer`. Applied to every message and field at every level, because a
/// debug line pasted into an issue is still a leak.
public struct Redactor: Sendable {
    public static let mask = "***"

    /// Query parameter names (compared case-insensitively) whose values are always secret.
    public static let secretParameterNames: Set<String> = [
        "key", "token", "apikey", "api_key", "access_token", "auth", "password", "secret", "signature",
    ]

    /// Exact strings to mask. Very short ones are ignored: masking "a" would shred every line.
    public let secrets: [String]

    /// The secrets' bytes when every secret is plain ASCII (nil otherwise), for `mightNeedMasking`.
    private let asciiSecrets: [[UInt8]]?

    public init(secrets: [String] = []) {
        self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
        self.asciiSecrets = self.secrets.allSatisfy(Redactor.isPlainASCII) ? self.secrets.map { Array($0.utf8) } : nil
    }

    public func redact(_ text: String) -> String {
        // Most fields (methods, paths, ids, addresses) hold nothing to mask: one pass over the
        // bytes proves it and returns the text untouched, with no allocation.
        if let clean = text.utf8.withContiguousStorageIfAvailable({ !mightNeedMasking($0) }), clean { return text }
        var out = text
        for secret in secrets where Redactor.contains(out, secret) {
            out = out.replacingOccurrences(of: secret, with: Redactor.mask)
        }
        return Redactor.maskCredentials(in: Redactor.maskQueryParameters(in: Redactor.maskUserinfo(in: out)))
    }

    /// Appends `redact(text)` as a JSON string literal (`JSONText.appendString`) to `out`.
    /// The access log does this for four fields of every request, and those fields are almost
    /// always plain (`GET`, `/v1/rates`, a request id, an address): one scan proves that there
    /// is nothing to mask and nothing to escape, and the bytes are copied whole. Anything else
    /// takes `redact` and the escaping path, so the output is the same either way.
    public func appendRedactedJSONString(_ text: String, to out: inout [UInt8]) {
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !mightNeedMasking(bytes, orJSONEscaping: true) else { return false }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return true
        }
        if copied == true { return }
        JSONText.appendString(redact(text), to: &out)
    }

    /// False only when `redact` would return `text` unchanged: plain ASCII (no CR, see
    /// `contains`) without `=` (query parameters, `authorization=`), without a credential
    /// marker and without any configured secret. Anything else takes the full path. With
    /// `orJSONEscaping`, also true for a byte a JSON string literal escapes (`"`, `\\`, controls).
    private func mightNeedMasking(_ text: UnsafeBufferPointer<UInt8>, orJSONEscaping: Bool = false) -> Bool {
        // A marker can only occur where its first and last bytes both do: `authorization:`
        // needs an `a` and a `:`, `bearer ` a `b` and a space (`authorization=` already
        // counts as `=`). Paths, ids and addresses rarely hold `:` or a space. One table
        // look-up per byte collects every class seen (this runs for each access-log field).
        var seen: UInt8 = 0
        Redactor.byteClasses.withUnsafeBufferPointer { classes in
            for b in text { seen |= classes[Int(b)] }
        }
        let stop = orJSONEscaping ? ByteClass.masking | ByteClass.jsonEscape : ByteClass.masking
        if seen & stop != 0 { return true }
        let sawA = seen & ByteClass.letterA != 0, sawB = seen & ByteClass.letterB != 0
        let sawColon = seen & ByteClass.colon != 0, sawSpace = seen & ByteClass.space != 0
        if (sawA && sawColon) || (sawB && sawSpace) {
            for marker in Redactor.credentialMarkerBytes where Redactor.containsIgnoringASCIICase(text, marker) { return true }
        }
        guard let asciiSecrets else { return true }
        for secret in asciiSecrets where Redactor.containsBytes(text, secret) { return true }
        return false
    }

    /// Byte classes for `mightNeedMasking`, one bit each.
    private enum ByteClass {
        /// Non-ASCII, CR (see `contains`), `=` (query parameters) or `@` (userinfo): take the full path.
        static let masking: UInt8 = 1
        /// What a JSON string literal escapes: `"`, `\\` and control bytes.
        static let jsonEscape: UInt8 = 2
        static let letterA: UInt8 = 4 // either case
        static let letterB: UInt8 = 8 // either case
        static let colon: UInt8 = 16
        static let space: UInt8 = 32
    }

    private static let byteClasses: [UInt8] = (0..<256).map { value in
        let b = UInt8(value)
        var classes: UInt8 = 0
        if b >= 0x80 || b == 0x0D || b == UInt8(ascii: "=") || b == UInt8(ascii: "@") { classes |= ByteClass.masking }
        if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { classes |= ByteClass.jsonEscape }
        switch b | (b >= 0x41 && b <= 0x5A ? 0x20 : 0) {
        case UInt8(ascii: "a"): classes |= ByteClass.letterA
        case UInt8(ascii: "b"): classes |= ByteClass.letterB
        case UInt8(ascii: ":"): classes |= ByteClass.colon
        case UInt8(ascii: " "): classes |= ByteClass.space
        default: break
        }
        return classes
    }

    private static let credentialMarkerBytes = credentialMarkers.map { Array($0.utf8) }

    private static func containsIgnoringASCIICase(_ text: UnsafeBufferPointer<UInt8>, _ marker: [UInt8]) -> Bool {
        guard marker.count <= text.count else { return false }
        for start in 0...(text.count - marker.count) {
            var k = 0
            while k < marker.count {
                let c = text[start + k]
                guard (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) == marker[k] else { break }
                k += 1
            }
            if k == marker.count { return true }
        }
        return false
    }

    private static func containsBytes(_ text: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        let n = needle.count
        guard n <= text.count else { return n == 0 }
        for start in 0...(text.count - n) where text[start..<(start + n)].elementsEqual(needle) { return true }
        return false
    }

    /// `http://user:pass@host/` → `http://***@host/`: whatever precedes the last `@` of a URL's
    /// authority is credentials.
    static func maskUserinfo(in text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            guard i + 3 <= bytes.count, bytes[i] == UInt8(ascii: ":"), bytes[i + 1] == UInt8(ascii: "/"),
                  bytes[i + 2] == UInt8(ascii: "/") else {
                out.append(bytes[i])
                i += 1
                continue
            }
            out.append(contentsOf: bytes[i..<(i + 3)])
            i += 3
            var end = i
            while end < bytes.count, !isAuthorityEnd(bytes[end]) { end += 1 }
            if let at = bytes[i..<end].lastIndex(of: UInt8(ascii: "@")) {
                out.append(contentsOf: mask.utf8)
                i = at
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Where an authority ends in free text. `;`, `,` and `&` may be part of a password.
    private static func isAuthorityEnd(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "/") || b == UInt8(ascii: "?") || b == UInt8(ascii: "#") || b == UInt8(ascii: "\"")
            || b == UInt8(ascii: "'") || b == UInt8(ascii: " ") || b == UInt8(ascii: ">") || b < 0x20
    }

    /// `…?key=SECRET&x=1` → `…?key=***&x=1`: a parameter starts after `?`, `&` or `;`.
    static func maskQueryParameters(in text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "=")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            out.append(b)
            i += 1
            guard b == UInt8(ascii: "?") || b == UInt8(ascii: "&") || b == UInt8(ascii: ";") else { continue }
            var j = i
            while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
            guard j < bytes.count, bytes[j] == UInt8(ascii: "="), j > i,
                  secretParameterNames.contains(String(decoding: bytes[i..<j], as: UTF8.self).lowercased()) else { continue }
            out.append(contentsOf: bytes[i...j])
            out.append(contentsOf: mask.utf8)
            j += 1
            while j < bytes.count, !isValueEnd(bytes[j]) { j += 1 }
            i = j
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `Authorization: Basic xyz` → `Authorization: ***`; `Bearer xyz` → `Bearer ***`.
    static func maskCredentials(in text: String) -> String {
        var out = text
        for marker in credentialMarkers {
            out = maskAfter(marker, in: out)
        }
        return out
    }

    private static let credentialMarkers = ["authorization:", "authorization=", "bearer "]

    /// `text.contains(secret)`, by bytes when both are ASCII without a CR (then every byte is
    /// its own Character, and equivalence is byte equality): this runs for every field of
    /// every log line.
    private static func contains(_ text: String, _ secret: String) -> Bool {
        guard isPlainASCII(text), isPlainASCII(secret) else { return text.contains(secret) }
        let haystack = Array(text.utf8), needle = Array(secret.utf8)
        guard needle.count <= haystack.count else { return needle.isEmpty }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    private static func isPlainASCII(_ s: String) -> Bool {
        s.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// ASCII case-insensitive search for a lower-case ASCII `marker`. The masking below only
    /// ever matches markers this way, so text without such a match comes back unchanged.
    private static func containsIgnoringASCIICase(_ text: String, _ marker: String) -> Bool {
        let m = Array(marker.utf8)
        guard let first = m.first else { return true }
        let bytes = text.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let b = bytes[index]
            if (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == first {
                var i = bytes.index(after: index)
                var k = 1
                while k < m.count, i != bytes.endIndex {
                    let c = bytes[i]
                    guard (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) == m[k] else { break }
                    k += 1
                    i = bytes.index(after: i)
                }
                if k == m.count { return true }
            }
            index = bytes.index(after: index)
        }
        return false
    }

    private static func maskAfter(_ marker: String, in text: String) -> String {
        guard containsIgnoringASCIICase(text, marker) else { return text }
        let lower = Array(text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        let bytes = Array(text.utf8)
        let m = Array(marker.utf8)
        guard bytes.count >= m.count else { return text }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if i + m.count <= bytes.count, lower[i..<(i + m.count)].elementsEqual(m) {
                out.append(contentsOf: bytes[i..<(i + m.count)])
                var j = i + m.count
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") { out.append(bytes[j]); j += 1 }
                // Keep the scheme word of `Authorization: Bearer x` so `bearer ` handles it.
                if marker != "bearer ", j < bytes.count, lower[j...].starts(with: Array("bearer ".utf8)) {
                    i = j
                    continue
                }
                guard j < bytes.count, !isValueEnd(bytes[j]) else { i = j; continue }
                out.append(contentsOf: mask.utf8)
                while j < bytes.count, !isCredentialEnd(bytes[j]) { j += 1 }
                i = j
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    private static func isValueEnd(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "&") || b == UInt8(ascii: "#") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'")
            || b == UInt8(ascii: " ") || b == UInt8(ascii: ";") || b == UInt8(ascii: ",") || b == UInt8(ascii: ">")
            || b < 0x20
    }

    /// Credentials run to the end of the header value: quotes, commas and line ends stop them.
    private static func isCredentialEnd(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: ",") || b < 0x20
    }
}
