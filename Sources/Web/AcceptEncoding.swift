import HTTP1
import Base
/// Whether a request's `Accept-Encoding` (RFC 9110 §12.5.3) lets the server answer with gzip.
///
/// The field is a comma-separated list of codings with optional weights (`gzip;q=0.8`).
/// gzip is acceptable when `gzip` or its alias `x-gzip` (§8.4.1.3) is listed with a weight
/// above 0, or when it is not listed and `*` is, with a weight above 0. `q=0` means "not
/// acceptable". No field: identity only (a client that says nothing gets plain bytes, the
/// safe reading for curl and old clients). Parsed as bytes in one pass with no allocation
/// (it runs on cached hits): malformed parts are skipped, never fatal.
public enum AcceptEncoding {
    /// Every `Accept-Encoding` field of the request, combined (§5.3); none read when the
    /// parser saw none go by (`HTTPRequest.values(of:)`).
    public static func allowsGzip(_ request: HTTPRequest) -> Bool {
        allowsGzip(request.values(of: .acceptEncoding))
    }

    /// The same for field values given one by one (tests, other callers).
    public static func allowsGzip(_ fieldValues: [String]) -> Bool {
        var verdict = Verdict()
        for value in fieldValues { verdict.read(value) }
        return verdict.allowsGzip
    }

    /// What the elements read so far say about gzip and about `*`.
    struct Verdict {
        var gzip: Bool?
        var wildcard: Bool?

        var allowsGzip: Bool { gzip ?? wildcard ?? false }

        mutating func read(_ value: String) {
            var value = value
            value.withUTF8 { bytes in
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                    element(bytes, start, end)
                    start = end + 1
                }
            }
        }

        /// One list element `coding *( OWS ";" OWS parameter )` in `bytes[start..<end]`.
        private mutating func element(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
            var cut = start
            while cut < end, bytes[cut] != UInt8(ascii: ";") { cut += 1 }
            let (codingStart, codingEnd) = trim(bytes, start, cut)
            var acceptable = true
            var parameter = cut + 1
            while parameter < end {
                var next = parameter
                while next < end, bytes[next] != UInt8(ascii: ";") { next += 1 }
                let (s, e) = trim(bytes, parameter, next)
                if e - s >= 2, ASCIICase.lowercased(bytes[s]) == UInt8(ascii: "q"), bytes[s + 1] == UInt8(ascii: "=") {
                    // A weight is positive when any digit of it is non-zero (§12.4.2).
                    acceptable = (s + 2..<e).contains { bytes[$0] >= UInt8(ascii: "1") && bytes[$0] <= UInt8(ascii: "9") }
                }
                parameter = next + 1
            }
            if matches(bytes, codingStart, codingEnd, "gzip") || matches(bytes, codingStart, codingEnd, "x-gzip") {
                gzip = (gzip ?? false) || acceptable
            } else if codingEnd - codingStart == 1, bytes[codingStart] == UInt8(ascii: "*") {
                wildcard = (wildcard ?? false) || acceptable
            }
        }

        private func trim(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int) {
            var s = start
            var e = end
            while s < e, bytes[s] == 0x20 || bytes[s] == 0x09 { s += 1 }
            while e > s, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
            return (s, e)
        }

        /// ASCII case-insensitive match against a lower-case token.
        private func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ token: StaticString) -> Bool {
            guard end - start == token.utf8CodeUnitCount else { return false }
            return token.withUTF8Buffer { expected in
                for i in 0..<expected.count {
                    if ASCIICase.lowercased(bytes[start + i]) != expected[i] { return false }
                }
                return true
            }
        }
    }
}
