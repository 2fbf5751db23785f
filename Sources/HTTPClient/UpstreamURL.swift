import CCurl

/// A URL as libcurl itself parses it, so the host we check is the host curl would connect to.
struct UpstreamURL: Sendable, Equatable {
    /// Lower-cased scheme, e.g. `https`.
    var scheme: String
    /// Lower-cased host name or address, without IPv6 brackets.
    var host: String
    /// The port curl connects to: the URL's, else the scheme's default.
    var port: Int

    /// Parses an absolute URL with curl's URL API; nil when curl would reject it.
    static func parse(_ string: String) -> UpstreamURL? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, string, 0) == CURLUE_OK else { return nil }
        guard let scheme = part(CURLUPART_SCHEME, of: handle), var host = part(CURLUPART_HOST, of: handle),
              !host.isEmpty, let portText = part(CURLUPART_PORT, of: handle, flags: UInt32(CURLU_DEFAULT_PORT)),
              let port = Int(portText) else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return UpstreamURL(scheme: scheme.lowercased(), host: host.lowercased(), port: port)
    }

    /// True when curl sees userinfo (`user[:password]@`) in `string`.
    static func hasUserinfo(_ string: String) -> Bool {
        guard let handle = curl_url() else { return true }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, string, 0) == CURLUE_OK else { return false }
        return part(CURLUPART_USER, of: handle) != nil || part(CURLUPART_PASSWORD, of: handle) != nil
    }

    private static func part(_ which: CURLUPart, of handle: OpaquePointer, flags: UInt32 = 0) -> String? {
        var out: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, which, &out, flags) == CURLUE_OK, let out else { return nil }
        defer { curl_free(out) }
        return String(cString: out)
    }

    /// Only plain HTTP and HTTPS upstreams are ever contacted (never `file:`, `ftp:`, `gopher:`…).
    var isHTTP: Bool { scheme == "http" || scheme == "https" }
}
