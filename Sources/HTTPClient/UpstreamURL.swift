import CCurl

/// A URL as libcurl itself parses it, so the host we check is the host curl would connect to.
struct UpstreamURL: Sendable, Equatable {
    /// Lower-cased scheme, e.g. `https`.
    var scheme: String
    /// Lower-cased host name or address, without IPv6 brackets.
    var host: String

    /// Parses an absolute URL with curl's URL API; nil when curl would reject it.
    static func parse(_ string: String) -> UpstreamURL? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, string, 0) == CURLUE_OK else { return nil }
        guard let scheme = part(CURLUPART_SCHEME, of: handle), var host = part(CURLUPART_HOST, of: handle),
              !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return UpstreamURL(scheme: scheme.lowercased(), host: host.lowercased())
    }

    private static func part(_ which: CURLUPart, of handle: OpaquePointer) -> String? {
        var out: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, which, &out, 0) == CURLUE_OK, let out else { return nil }
        defer { curl_free(out) }
        return String(cString: out)
    }

    /// Only plain HTTP and HTTPS upstreams are ever contacted (never `file:`, `ftp:`, `gopher:`…).
    var isHTTP: Bool { scheme == "http" || scheme == "https" }
}

/// The `allowedHosts` rule of `UpstreamRequest`: exact names, or `.suffix` entries that match
/// the domain itself and its subdomains. Public so services that refuse a URL before asking
/// the client (Books' covers) apply the very rule the client enforces.
public enum HostPolicy {
    public static func allows(_ host: String, in allowed: Set<String>) -> Bool {
        let host = host.lowercased()
        for entry in allowed {
            let entry = entry.lowercased()
            if entry.hasPrefix(".") {
                if host.hasSuffix(entry) || host == entry.dropFirst() { return true }
            } else if host == entry {
                return true
            }
        }
        return false
    }
}
