import Transport

/// The client address of a request that came through a trusted reverse proxy
/// (`server.trustForwardedHeaders`), for the access log.
///
/// `X-Forwarded-For` is a comma-separated list to which each proxy appends the address it
/// received the request from. almanac trusts exactly one hop, the proxy directly in front of
/// it, so it takes the **last** entry: the one that proxy wrote. Entries to its left were
/// supplied by the client (or by proxies almanac cannot vouch for) and can say anything.
/// Only a numeric IPv4 or IPv6 address is taken (a `:port` suffix, `[v6]:port` brackets and
/// surrounding spaces are removed); anything else leaves the peer address in place, so a
/// forged header can never write arbitrary text into the log.
public enum ForwardedFor {
    /// The address to log, or nil to keep the peer's. With several `X-Forwarded-For` fields,
    /// the last one's last entry counts (RFC 9110 §5.3: they read as one comma-joined list).
    public static func clientAddress(_ headers: HTTPHeaders) -> String? {
        guard let value = headers.values(for: "X-Forwarded-For").last else { return nil }
        let bytes = Array(value.utf8)
        let lastEntry = bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).last ?? []
        return numericAddress(trimmed(lastEntry))
    }

    /// `203.0.113.7`, `203.0.113.7:4711`, `2001:db8::1`, `[2001:db8::1]:4711` → the address.
    /// Compared as bytes: only ASCII digits, hex digits, `.`, `:` and brackets ever pass.
    static func numericAddress(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        func isDigits(_ part: ArraySlice<UInt8>) -> Bool { !part.isEmpty && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let rest = bytes[(close + 1)...]
            guard rest.isEmpty || (rest.first == UInt8(ascii: ":") && isDigits(rest.dropFirst())) else { return nil }
            return ipv6(bytes[(bytes.startIndex + 1)..<close])
        }
        if let address = ipv6(bytes) { return address }
        var host = bytes
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            guard isDigits(bytes[(colon + 1)...]) else { return nil }
            host = bytes[..<colon]
        }
        return ipv4(host)
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = bytes
        while let b = s.first, b == 0x20 || b == 0x09 { s = s.dropFirst() }
        while let b = s.last, b == 0x20 || b == 0x09 { s = s.dropLast() }
        return s
    }

    private static func ipv4(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return NumericAddress.isIPv4(text) ? text : nil
    }

    private static func ipv6(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return NumericAddress.isIPv6(text) ? text : nil
    }
}
