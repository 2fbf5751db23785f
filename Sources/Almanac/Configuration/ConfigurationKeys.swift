import HTTPClient

/// The table of every key (the table in docs/operations.md "Configuration"). Order is the documentation order.
extension ConfigurationKey {
    static var all: [ConfigurationKey] {
        var keys: [ConfigurationKey] = [
            string("server.host", \.server.host, expected: "a host name or IP address", valid: isHost),
            integer("server.port", \.server.port, 1...65535),
            integer("server.maxConnections", \.server.maxConnections, 1...1_000_000),
            seconds("server.headerTimeoutSeconds", \.server.headerTimeoutSeconds, max: 3600),
            seconds("server.idleTimeoutSeconds", \.server.idleTimeoutSeconds, max: 86400),
            integer("server.maxHeaderBytes", \.server.maxHeaderBytes, 1024...1_048_576),
            integer("server.maxBodyBytes", \.server.maxBodyBytes, 0...104_857_600),
            seconds("server.shutdownGraceSeconds", \.server.shutdownGraceSeconds, max: 3600),
            seconds("server.shutdownDelaySeconds", \.server.shutdownDelaySeconds, allowZero: true, max: 3600),
            optional("server.adminToken", \.server.adminToken, secret: true,
                     expected: "at least 8 printable ASCII characters without spaces, or null",
                     valid: { isToken($0) && $0.count >= 8 }),
            origins("server.cors.allowedOrigins", \.server.cors.allowedOrigins),
            optional("server.publicBaseUrl", \.server.publicBaseUrl, secret: false,
                     expected: "an http:// or https:// URL with a host, no userinfo, query or fragment, or null",
                     valid: isBaseURL),
            boolean("server.trustForwardedHeaders", \.server.trustForwardedHeaders),

            integer("cache.maxEntries", \.cache.maxEntries, 1...100_000_000),
            integer("cache.maxBytes", \.cache.maxBytes, 1024...1_099_511_627_776),
            redisURL("cache.redis.url", \.cache.redis.url),
            string("cache.redis.keyPrefix", \.cache.redis.keyPrefix,
                   expected: "1 to 64 printable ASCII characters without spaces", valid: { isToken($0) && $0.utf8.count <= 64 }),
            integer("cache.redis.timeoutMs", \.cache.redis.timeoutMs, 1...60_000),
            integer("cache.redis.maxValueBytes", \.cache.redis.maxValueBytes, 1...536_870_912),

            integer("upstream.connectTimeoutMs", \.upstream.connectTimeoutMs, 1...600_000),
            integer("upstream.timeoutMs", \.upstream.timeoutMs, 1...600_000),
            integer("upstream.retries", \.upstream.retries, 0...10),
            integer("upstream.maxResponseBytes", \.upstream.maxResponseBytes, 1...1_073_741_824),
            string("upstream.userAgent", \.upstream.userAgent,
                   expected: "a non-empty string of printable ASCII", valid: isHeaderValue),
            integer("upstream.maxQueueMs", \.upstream.maxQueueMs, 0...60_000),
            seconds("upstream.maxCooldownSeconds", \.upstream.maxCooldownSeconds, max: 86400),
            integer("upstream.breakerFailures", \.upstream.breakerFailures, 1...1000),
            integer("upstream.retryBudgetPercent", \.upstream.retryBudgetPercent, 0...100),
            integer("upstream.requestDeadlineMs", \.upstream.requestDeadlineMs, 1...600_000),

            providers("rates.providers", \.rates.providers, allowed: AlmanacConfiguration.Rates.knownProviders),
            seconds("rates.ttlSeconds", \.rates.ttlSeconds),
            seconds("rates.staleSeconds", \.rates.staleSeconds, allowZero: true),
            url("rates.coinbase.baseUrl", \.rates.coinbase.baseUrl),
            url("rates.coingecko.baseUrl", \.rates.coingecko.baseUrl),
            url("rates.coindesk.baseUrl", \.rates.coindesk.baseUrl),
        ]
        keys += budget("rates.coinbase", rate: \.rates.coinbase.maxRequestsPerSecond, burst: \.rates.coinbase.burst)
        keys += budget("rates.coingecko", rate: \.rates.coingecko.maxRequestsPerSecond, burst: \.rates.coingecko.burst)
        keys += budget("rates.coindesk", rate: \.rates.coindesk.maxRequestsPerSecond, burst: \.rates.coindesk.burst)
        keys += [
            providers("rates.history.providers", \.rates.history.providers,
                      allowed: AlmanacConfiguration.Rates.History.knownProviders),
            seconds("rates.history.ttlSeconds", \.rates.history.ttlSeconds),
            url("rates.bitstamp.baseUrl", \.rates.bitstamp.baseUrl),
            url("rates.coinbaseExchange.baseUrl", \.rates.coinbaseExchange.baseUrl),
            url("rates.frankfurter.baseUrl", \.rates.frankfurter.baseUrl),
        ]
        keys += budget("rates.bitstamp", rate: \.rates.bitstamp.maxRequestsPerSecond, burst: \.rates.bitstamp.burst)
        keys += budget("rates.coinbaseExchange", rate: \.rates.coinbaseExchange.maxRequestsPerSecond, burst: \.rates.coinbaseExchange.burst)
        keys += budget("rates.frankfurter", rate: \.rates.frankfurter.maxRequestsPerSecond, burst: \.rates.frankfurter.burst)
        keys += [

            providers("books.providers", \.books.providers, allowed: AlmanacConfiguration.Books.knownProviders),
            seconds("books.ttlSeconds", \.books.ttlSeconds),
            seconds("books.notFoundTtlSeconds", \.books.notFoundTtlSeconds, allowZero: true),
            seconds("books.staleSeconds", \.books.staleSeconds, allowZero: true),
            url("books.googleBooks.baseUrl", \.books.googleBooks.baseUrl),
            optional("books.googleBooks.apiKey", \.books.googleBooks.apiKey, secret: true,
                     expected: "a string of printable ASCII without spaces, or null", valid: isToken),
            optional("books.googleBooks.country", \.books.googleBooks.country, secret: false,
                     expected: "a two-letter upper-case country code (ISO 3166-1), or null",
                     valid: { $0.count == 2 && $0.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A } }),
            url("books.openLibrary.baseUrl", \.books.openLibrary.baseUrl),
            // Seeds the cover allow-list, which only holds origins `UpstreamOrigin` accepts.
            string("books.openLibrary.coversBaseUrl", \.books.openLibrary.coversBaseUrl,
                   expected: "an http:// or https:// URL with a host name or dotted-quad IPv4 address and no query",
                   valid: { isBaseURL($0) && (try? UpstreamOrigin.parse($0).get()) != nil }),
        ]
        keys += budget("books.googleBooks", rate: \.books.googleBooks.maxRequestsPerSecond, burst: \.books.googleBooks.burst)
        keys += budget("books.openLibrary", rate: \.books.openLibrary.maxRequestsPerSecond, burst: \.books.openLibrary.burst)
        keys += [
            integer("books.maxCoverBytes", \.books.maxCoverBytes, 1...67_108_864),

            choice("log.level", \.log.level as WritableKeyPath<AlmanacConfiguration, LogLevel>),
            choice("log.format", \.log.format as WritableKeyPath<AlmanacConfiguration, LogFormat>),
        ]
        return keys
    }

    /// Object paths that hold keys (`server`, `books.googleBooks`, …).
    static var sections: Set<String> {
        var out: Set<String> = []
        for key in all {
            var parts = key.path.split(separator: ".").dropLast()
            while !parts.isEmpty {
                out.insert(parts.joined(separator: "."))
                parts = parts.dropLast()
            }
        }
        return out
    }
}
