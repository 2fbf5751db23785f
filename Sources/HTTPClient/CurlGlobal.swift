import CCurl

/// libcurl's process-wide initialisation, done exactly once before the first handle exists.
enum CurlGlobal {
    /// Swift initialises a `static let` once, thread-safely (swift_once), which is the
    /// one-time guarantee `curl_global_init` needs: it is not itself thread-safe.
    private static let initResult: CURLcode = curl_global_init(ccurl_global_default)

    /// Call before creating any easy or multi handle.
    static func ensureInitialised() {
        precondition(initResult == CURLE_OK, "curl_global_init failed: \(initResult.rawValue)")
    }
}
