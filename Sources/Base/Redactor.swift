/// The one way almanac keeps secrets out of what it shows: log lines, problem details, the
/// URLs of upstream errors, libcurl's own messages, configuration errors and the configuration
/// dump, Redis URLs and Redis error replies. One rule everywhere: a secret is replaced whole by
/// `***` (`mask`), never shortened, hashed or partly shown, so nothing of it can be recovered
/// and every place looks the same to someone grepping a log for a leak.
///
/// What counts as a secret:
/// - the configured secrets themselves (admin token, Google API key), wherever they appear;
/// - the value of a secret-looking query parameter in any URL (`key=`, `token=`, `apiKey=`, …,
///   names compared case-insensitively and after percent-decoding), plus any names a caller adds;
/// - userinfo in a URL (`http://user:pass@host` → `http://***@host`);
/// - credentials after `Authorization:` / `authorization=` or `Bearer`.
///
/// Everything is matched on bytes (never `Character`s), so no input can make it misbehave.
/// Applied to every log message and field at every level: a debug line pasted into an issue is
/// still a leak.
public struct Redactor: Sendable {
    public static let mask = "***"
    private static let maskBytes = Array(mask.utf8)

    /// Query parameter names (lower case; compared case-insensitively) whose values are always secret.
    public static let secretParameterNames: Set<String> = [
        "key", "token", "apikey", "api_key", "access_token", "auth", "password", "secret", "signature",
    ]

    /// Exact strings to mask, longest first. Very short ones are ignored as free text (masking
    /// "a" would shred every line); as a parameter value or userinfo they are still masked.
    public let secrets: [String]
    private let secretBytes: [[UInt8]]
    /// `secretParameterNames` and the caller's own, lower-cased.
    private let parameterNames: Set<String>

    /// - Parameters:
    ///   - secrets: values to mask wherever they appear.
    ///   - parameters: query parameter names whose values are secret besides `secretParameterNames`.
    public init(secrets: [String] = [], parameters: Set<String> = []) {
        self.secrets = secrets.filter { $0.utf8.count >= 4 }.sorted { $0.utf8.count > $1.utf8.count }
        self.secretBytes = self.secrets.map { Array($0.utf8) }
        self.parameterNames = parameters.isEmpty
            ? Redactor.secretParameterNames
            : Redactor.secretParameterNames.union(parameters.map { ASCIICase.lowercased($0.utf8) })
    }

    public func redact(_ text: String) -> String {
        // Most fields (methods, paths, ids, addresses) hold nothing to mask: one pass over the
        // bytes proves it and returns the text untouched, with no allocation.
        if let clean = text.utf8.withContiguousStorageIfAvailable({ !mightNeedMasking($0) }), clean { return text }
        var bytes = Array(text.utf8)
        for secret in secretBytes { bytes = Redactor.replacing(secret, in: bytes) }
        bytes = Redactor.maskCredentials(in: maskQueryParameters(in: Redactor.maskUserinfo(in: bytes)))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with the values of `url`'s secret query parameters (raw and percent-decoded)
    /// masked wherever they appear: a last line of defence for messages libcurl writes itself,
    /// which may quote the URL in any form.
    public static func scrub(_ text: String, url: String, parameters: Set<String>) -> String {
        Redactor(secrets: Redactor(parameters: parameters).secretValues(inURL: url), parameters: parameters).redact(text)
    }

    /// `bytes` with every occurrence of `secret` replaced by the mask (an empty secret changes nothing).
    public static func replacing(_ secret: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        let n = secret.count
        guard n > 0, n <= bytes.count else { return bytes }
        var out: [UInt8] = []
        var i = 0
        var copied = 0
        while i + n <= bytes.count {
            if bytes[i] == secret[0], bytes[i..<(i + n)].elementsEqual(secret) {
                if out.isEmpty { out.reserveCapacity(bytes.count) }
                out.append(contentsOf: bytes[copied..<i])
                out.append(contentsOf: maskBytes)
                i += n
                copied = i
            } else {
                i += 1
            }
        }
        guard copied > 0 else { return bytes }
        out.append(contentsOf: bytes[copied...])
        return out
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

    /// False only when `redact` would return `text` unchanged: plain ASCII without `=` (query
    /// parameters, `authorization=`) or `@` (userinfo), without a credential marker and
    /// without any configured secret. Anything else takes the full path. With
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
            for marker in Redactor.credentialMarkers where Redactor.firstIndexIgnoringASCIICase(of: marker, in: text) != nil {
                return true
            }
        }
        for secret in secretBytes where Redactor.firstIndex(of: secret, in: text) != nil { return true }
        return false
    }

    /// Byte classes for `mightNeedMasking`, one bit each.
    private enum ByteClass {
        /// Non-ASCII or CR (the slow path is the reference), `=` (query parameters) or `@`
        /// (userinfo): take the full path.
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
        switch ASCIICase.lowercased(b) {
        case UInt8(ascii: "a"): classes |= ByteClass.letterA
        case UInt8(ascii: "b"): classes |= ByteClass.letterB
        case UInt8(ascii: ":"): classes |= ByteClass.colon
        case UInt8(ascii: " "): classes |= ByteClass.space
        default: break
        }
        return classes
    }

    // MARK: - Finding

    private static func firstIndex<C: Collection<UInt8>>(of needle: [UInt8], in text: C, from start: Int = 0) -> Int?
    where C.Index == Int {
        let n = needle.count
        guard n > 0, text.count >= n, start <= text.count - n else { return nil }
        for i in start...(text.count - n) where text[i] == needle[0] {
            var k = 1
            while k < n, text[i + k] == needle[k] { k += 1 }
            if k == n { return i }
        }
        return nil
    }

    /// Where the lower-case ASCII `marker` starts in `text`, ASCII letters in any case.
    private static func firstIndexIgnoringASCIICase<C: Collection<UInt8>>(of marker: [UInt8], in text: C, from start: Int = 0) -> Int?
    where C.Index == Int {
        let n = marker.count
        guard n > 0, text.count >= n, start <= text.count - n else { return nil }
        for i in start...(text.count - n) {
            var k = 0
            while k < n, ASCIICase.lowercased(text[i + k]) == marker[k] { k += 1 }
            if k == n { return i }
        }
        return nil
    }

    // MARK: - Masking

    /// `http://user:pass@host/` → `http://***@host/`: whatever precedes the last `@` of a URL's
    /// authority is credentials.
    static func maskUserinfo(in bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "@")) else { return bytes }
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
                out.append(contentsOf: maskBytes)
                i = at
            }
        }
        return out
    }

    /// Where an authority ends in free text. `;`, `,` and `&` may be part of a password.
    private static func isAuthorityEnd(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "/") || b == UInt8(ascii: "?") || b == UInt8(ascii: "#") || b == UInt8(ascii: "\"")
            || b == UInt8(ascii: "'") || b == UInt8(ascii: " ") || b == UInt8(ascii: ">") || b < 0x20
    }

    /// The secret parameters of `bytes` (`…?key=SECRET&x=1`): where each value starts and ends.
    /// A parameter starts after `?`, `&` or `;`; its name may be percent-encoded.
    private func secretParameterValues(in bytes: [UInt8]) -> [Range<Int>] {
        var values: [Range<Int>] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            guard b == UInt8(ascii: "?") || b == UInt8(ascii: "&") || b == UInt8(ascii: ";") else { continue }
            var j = i
            while j < bytes.count, Redactor.isNameByte(bytes[j]) { j += 1 }
            guard j < bytes.count, bytes[j] == UInt8(ascii: "="), j > i,
                  let name = PercentDecoding.decode(bytes[i..<j]),
                  parameterNames.contains(ASCIICase.lowercased(name)) else { continue }
            j += 1
            var end = j
            while end < bytes.count, !Redactor.isValueEnd(bytes[end]) { end += 1 }
            values.append(j..<end)
            i = end
        }
        return values
    }

    /// `…?key=SECRET&x=1` → `…?key=***&x=1`.
    func maskQueryParameters(in bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "=")) else { return bytes }
        let values = secretParameterValues(in: bytes)
        guard !values.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var copied = 0
        for value in values {
            out.append(contentsOf: bytes[copied..<value.lowerBound])
            out.append(contentsOf: Redactor.maskBytes)
            copied = value.upperBound
        }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// The non-empty values of `url`'s secret parameters, as written and percent-decoded.
    func secretValues(inURL url: String) -> [String] {
        let bytes = Array(url.utf8)
        var values: [String] = []
        for range in secretParameterValues(in: bytes) where !range.isEmpty {
            values.append(String(decoding: bytes[range], as: UTF8.self))
            if let decoded = PercentDecoding.decode(bytes[range]), !decoded.elementsEqual(bytes[range]) {
                values.append(String(decoding: decoded, as: UTF8.self))
            }
        }
        return values
    }

    private static let credentialMarkers = ["authorization:", "authorization=", "bearer "].map { Array($0.utf8) }
    private static let bearer = Array("bearer ".utf8)

    /// `Authorization: Basic xyz` → `Authorization: ***`; `Bearer xyz` → `Bearer ***`.
    static func maskCredentials(in bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        for marker in credentialMarkers where firstIndexIgnoringASCIICase(of: marker, in: out) != nil {
            out = maskAfter(marker, in: out)
        }
        return out
    }

    private static func maskAfter(_ marker: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while let found = firstIndexIgnoringASCIICase(of: marker, in: bytes, from: i) {
            out.append(contentsOf: bytes[i..<(found + marker.count)])
            var j = found + marker.count
            while j < bytes.count, bytes[j] == UInt8(ascii: " ") { out.append(bytes[j]); j += 1 }
            i = j
            // Keep the scheme word of `Authorization: Bearer x` so `bearer ` handles it.
            if marker != bearer, bytes.count - j >= bearer.count,
               zip(bytes[j...], bearer).allSatisfy({ ASCIICase.lowercased($0) == $1 }) { continue }
            guard j < bytes.count, !isValueEnd(bytes[j]) else { continue }
            out.append(contentsOf: maskBytes)
            while j < bytes.count, !isCredentialEnd(bytes[j]) { j += 1 }
            i = j
        }
        out.append(contentsOf: bytes[i...])
        return out
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "%")
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
