import Base

/// The request-target of a request line, reduced to what routing needs (RFC 9112 §3.2), written
/// straight into the request's parts (`RequestParts`: the target as sent, the `path[?query]`
/// to route by, an absolute-form target's authority, the first `?`).
enum RequestTargetParser {
    /// Accepts origin-form (`/path?query`), absolute-form (`http://host/path?query`) and
    /// asterisk-form (`*`, OPTIONS only). authority-form is CONNECT's, which is refused
    /// earlier with 501. The routed target is the target itself for origin-form, the path and
    /// query of the URI for absolute-form, `*` for asterisk-form.
    ///
    /// Every byte must be visible ASCII (VCHAR) other than `#`: a fragment is never part
    /// of a request-target (RFC 9112 §3.2), and controls, spaces or raw non-ASCII bytes
    /// would make the line ambiguous to other parsers on the path.
    static func parse(_ target: ParseBytes, isOptions: Bool, into parts: inout RequestParts) -> ParseError? {
        guard !target.isEmpty else {
            return .badRequest("The request-target is empty (only one space may separate it from the method and the version)")
        }
        guard let question = target.checkedTargetBytes() else {
            return .badRequest("The request-target contains a control, space, non-ASCII byte or '#'; percent-encode it (RFC 3986)")
        }
        let first = target[target.start]
        if first == ParseByte.slash {
            let s = target.string
            parts.rawTarget = s
            parts.routedTarget = s
            parts.queryMark = question
            return nil
        }
        if target.count == 1 && first == 0x2A {
            guard isOptions else {
                return .badRequest("The request-target '*' is only valid with OPTIONS (RFC 9112 §3.2.4)")
            }
            parts.rawTarget = "*"
            parts.routedTarget = "*"
            parts.queryMark = -1
            return nil
        }
        if let afterScheme = schemeEnd(target) {
            return parseAbsolute(target, authorityStart: afterScheme, into: &parts)
        }
        return .badRequest("The request-target must be a path starting with '/', an absolute http(s) URI, or '*' with OPTIONS")
    }

    /// Index after `http://` or `https://` (scheme compared case-insensitively, RFC 3986 §3.1).
    private static func schemeEnd(_ t: ParseBytes) -> Int? {
        for scheme: StaticString in ["http://", "https://"] {
            let n = scheme.utf8CodeUnitCount
            if t.count >= n && ParseBytes(t.base, t.start, t.start + n).equalsLowercase(scheme) {
                return t.start + n
            }
        }
        return nil
    }

    private static func parseAbsolute(_ t: ParseBytes, authorityStart: Int, into parts: inout RequestParts) -> ParseError? {
        var i = authorityStart
        while i < t.end && t[i] != ParseByte.slash && t[i] != ParseByte.question { i += 1 }
        let authority = ParseBytes(t.base, authorityStart, i)
        guard !authority.isEmpty, HostValidator.isValid(authority) else {
            return .badRequest("The absolute-form request-target has no valid host (userinfo is not allowed)")
        }
        let rest = ParseBytes(t.base, i, t.end)
        let origin = (rest.isEmpty || t[i] == ParseByte.question) ? "/" + rest.string : rest.string
        parts.rawTarget = t.string
        parts.routedTarget = origin
        parts.authority = authority.string
        parts.queryMark = HTTPRequest.queryMark(in: origin)
        return nil
    }
}

extension ParseBytes {
    /// Whether every byte is visible ASCII (VCHAR) other than `#`, eight bytes at a time, and
    /// if so the offset from `start` of the first `?` (-1 when there is none); nil otherwise.
    func checkedTargetBytes() -> Int? {
        guard let raw = UnsafeRawPointer(base.baseAddress) else { return isEmpty ? -1 : nil }
        var question = -1
        var i = start
        while i &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            // Below 0x21 (controls, SP), 0x80 and up, DEL, '#'.
            let bad = ByteSearch.marks(below: 0x21, in: word) | (word & ByteSearch.highBits)
                | ByteSearch.marks(of: 0x7F, in: word) | ByteSearch.marks(of: 0x23, in: word)
            if bad != 0 { return nil }
            if question < 0 {
                let marks = ByteSearch.marks(of: UInt64(ParseByte.question), in: word)
                if marks != 0 { question = i &- start &+ marks.trailingZeroBitCount / 8 }
            }
            i &+= 8
        }
        while i < end {
            let b = base[i]
            guard ParseByte.isVisible(b) && b != 0x23 else { return nil }
            if question < 0 && b == ParseByte.question { question = i &- start }
            i &+= 1
        }
        return question
    }
}

/// `Host = uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2.2).
enum HostValidator {
    /// An empty value is valid for `Host` (RFC 9112 §3.2: a client with no authority sends
    /// it empty); callers that need a host check emptiness themselves.
    static func isValid(_ v: ParseBytes) -> Bool {
        if v.isEmpty { return true }
        var i = v.start
        if v[i] == 0x5B {  // '[' IP-literal ']'
            i += 1
            let open = i
            while i < v.end && v[i] != 0x5D {
                guard isUnreserved(v[i]) || isSubDelim(v[i]) || v[i] == ParseByte.colon else { return false }
                i += 1
            }
            guard i < v.end, i > open else { return false }
            i += 1
        } else {
            let hostStart = i
            while i < v.end {
                // A comma is a sub-delim, but in Host it is what joining two Host fields
                // produces ("a,b"): refuse it rather than guess which host was meant. A run of
                // reg-name bytes (a usual host whole) goes by in one tight loop.
                while i < v.end && isRegNameByte(v[i]) { i &+= 1 }
                guard i < v.end, v[i] != ParseByte.colon else { break }
                guard v[i] == 0x25,  // pct-encoded
                      i + 2 < v.end, ParseByte.hexValue(v[i + 1]) != nil, ParseByte.hexValue(v[i + 2]) != nil else { return false }
                i += 3
            }
            guard i > hostStart else { return false }
        }
        if i == v.end { return true }
        guard v[i] == ParseByte.colon else { return false }
        i += 1
        let portStart = i
        var port = 0
        while i < v.end {
            guard ParseByte.isDigit(v[i]), i - portStart < 5 else { return false }
            port = port * 10 + Int(v[i] - 0x30)
            i += 1
        }
        return port <= 65535
    }

    /// unreserved or a sub-delim other than the comma, as a 128-bit mask (bytes 0-63 in
    /// `regNameLow`, 64-127 in `regNameHigh`; a unit test checks it against the predicates).
    static let regNameLow: UInt64 = 0x2BFF_6FD2_0000_0000
    static let regNameHigh: UInt64 = 0x47FF_FFFE_87FF_FFFE

    /// `isUnreserved(b) || (isSubDelim(b) && b != comma)`, one bit test.
    @inline(__always)
    static func isRegNameByte(_ b: UInt8) -> Bool { ParseByte.isIn(b, low: regNameLow, high: regNameHigh) }

    @inline(__always)
    static func isUnreserved(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || ParseByte.isDigit(b)
            || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
    }

    /// `! $ & ' ( ) * + , ; =`
    @inline(__always)
    static func isSubDelim(_ b: UInt8) -> Bool {
        switch b {
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D: return true
        default: return false
        }
    }
}
