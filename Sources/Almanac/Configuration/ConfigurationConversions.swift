import Cache
import HTTPClient
import HTTPServer

/// The module-level configurations derived from the operator's one file, so each module
/// keeps its own small type and only Almanac knows how the keys map.
extension AlmanacConfiguration {
    public var httpServerConfiguration: HTTPServerConfiguration {
        var c = HTTPServerConfiguration()
        c.host = server.host
        c.port = server.port
        c.maxConnections = server.maxConnections
        c.headerTimeoutSeconds = server.headerTimeoutSeconds
        // A body gets no longer than a head: no almanac route takes a body, and a 30 s body
        // deadline let slow-body clients (slowhttptest -B) hold every connection slot
        // (bench/repro/slow_body_exhaustion.sh).
        c.bodyTimeoutSeconds = server.headerTimeoutSeconds
        c.idleTimeoutSeconds = server.idleTimeoutSeconds
        c.maxHeaderBytes = server.maxHeaderBytes
        c.maxBodyBytes = server.maxBodyBytes
        c.shutdownGraceSeconds = server.shutdownGraceSeconds
        c.serverName = AlmanacVersion.serverName
        c.trustForwardedHeaders = server.trustForwardedHeaders
        return c
    }

    public var httpClientConfiguration: HTTPClientConfiguration {
        var c = HTTPClientConfiguration()
        c.connectTimeoutMs = upstream.connectTimeoutMs
        c.timeoutMs = upstream.timeoutMs
        c.retries = upstream.retries
        c.maxResponseBytes = upstream.maxResponseBytes
        c.userAgent = upstream.userAgent
        return c
    }

    public var cacheLimits: CacheLimits {
        CacheLimits(maxEntries: cache.maxEntries, maxBytes: cache.maxBytes)
    }

    /// The secrets this configuration holds, for the log `Redactor`.
    public var secrets: [String] {
        [server.adminToken, books.googleBooks.apiKey].compactMap { $0 }
    }
}
