import HTTP1
import HTTPClient
import Upstream

/// The table of every key (the table in docs/operations.md "Configuration"). Order is the documentation order.
extension ConfigurationKey {
    /// Every key of the standard build.
    static var all: [ConfigurationKey] { all(for: AlmanacConfiguration()) }

    /// Every key of a configuration whose defaults (and provider registries) are `defaults`:
    /// each registered provider gets `<area>.<configName>.baseUrl`, `.maxRequestsPerSecond`
    /// and `.burst`, and the provider lists accept exactly the registered ids.
    static func all(for defaults: AlmanacConfiguration) -> [ConfigurationKey] {
        var keys: [ConfigurationKey] = [
            string("server.host", \.server.http.host, expected: "a host name or IP address", valid: isHost),
            integer("server.port", \.server.http.port, 1...65535),
            integer("server.maxConnections", \.server.http.maxConnections, 1...1_000_000),
            choice("server.loopPlacement", \.server.http.loopPlacement as WritableKeyPath<AlmanacConfiguration, LoopPlacement>),
            seconds("server.headerTimeoutSeconds", \.server.http.headerTimeoutSeconds, max: 3600),
            seconds("server.idleTimeoutSeconds", \.server.http.idleTimeoutSeconds, max: 86400),
            integer("server.maxHeaderBytes", \.server.http.maxHeaderBytes, 1024...1_048_576),
            integer("server.maxBodyBytes", \.server.http.maxBodyBytes, 0...104_857_600),
            seconds("server.shutdownGraceSeconds", \.server.http.shutdownGraceSeconds, max: 3600),
            seconds("server.shutdownDelaySeconds", \.server.shutdownDelaySeconds, allowZero: true, max: 3600),
            optional("server.adminToken", \.server.adminToken, secret: true,
                     expected: "at least 8 printable ASCII characters without spaces, or null",
                     valid: { isToken($0) && $0.count >= 8 }),
            origins("server.cors.allowedOrigins", \.server.cors.allowedOrigins),
            optional("server.publicBaseUrl", \.server.publicBaseURL, secret: false,
                     expected: "an http:// or https:// URL with a host, no userinfo, query or fragment, or null",
                     valid: isBaseURL),
            boolean("server.trustForwardedHeaders", \.server.http.trustForwardedHeaders),

            integer("cache.maxEntries", \.cache.maxEntries, 1...100_000_000),
            integer("cache.maxBytes", \.cache.maxBytes, 1024...1_099_511_627_776),
            redisURL("cache.redis.url", \.cache.redis.url),
            string("cache.redis.keyPrefix", \.cache.redis.keyPrefix,
                   expected: "1 to 64 printable ASCII characters without spaces", valid: { isToken($0) && $0.utf8.count <= 64 }),
            integer("cache.redis.timeoutMs", \.cache.redis.timeoutMs, 1...60_000),
            integer("cache.redis.maxValueBytes", \.cache.redis.maxValueBytes, 1...536_870_912),
            redisSentinels("cache.redis.sentinels", \.cache.redis.sentinels),
            optional("cache.redis.masterName", \.cache.redis.masterName, secret: false,
                     expected: "1 to 64 printable ASCII characters without spaces, or null",
                     valid: { isToken($0) && $0.utf8.count <= 64 }),
            optional("cache.redis.password", \.cache.redis.password, secret: true,
                     expected: "1 to 512 printable ASCII characters without spaces, or null",
                     valid: { isToken($0) && $0.utf8.count <= 512 }),
            boolean("cache.redis.tls.enabled", \.cache.redis.tls.enabled),
            optional("cache.redis.tls.caFile", \.cache.redis.tls.caFile, secret: false,
                     expected: "the path of a PEM file, or null", valid: isFilePath),
            optional("cache.redis.tls.certFile", \.cache.redis.tls.certFile, secret: false,
                     expected: "the path of a PEM file, or null", valid: isFilePath),
            optional("cache.redis.tls.keyFile", \.cache.redis.tls.keyFile, secret: false,
                     expected: "the path of a PEM file, or null", valid: isFilePath),
            optional("cache.redis.tls.serverName", \.cache.redis.tls.serverName, secret: false,
                     expected: "a host name or IP address, or null", valid: isHost),
            boolean("cache.redis.tls.verify", \.cache.redis.tls.verify),

            integer("upstream.connectTimeoutMs", \.upstream.client.connectTimeoutMs, 1...600_000),
            integer("upstream.timeoutMs", \.upstream.client.timeoutMs, 1...600_000),
            integer("upstream.retries", \.upstream.client.retries, 0...10),
            integer("upstream.stallSeconds", \.upstream.client.stallSeconds, 0...600),
            integer("upstream.maxResponseBytes", \.upstream.client.maxResponseBytes, 1...1_073_741_824),
            string("upstream.userAgent", \.upstream.client.userAgent,
                   expected: "a non-empty string of printable ASCII", valid: isHeaderValue),
            integer("upstream.maxQueueMs", \.upstream.steward.maxQueueMs, 0...60_000),
            seconds("upstream.maxCooldownSeconds", \.upstream.steward.limits.maxCooldownSeconds, max: 86400),
            integer("upstream.breakerFailures", \.upstream.steward.limits.breakerFailures, 1...1000),
            integer("upstream.retryBudgetPercent", \.upstream.steward.limits.retryBudgetPercent, 0...100),
            integer("upstream.requestDeadlineMs", \.upstream.steward.requestDeadlineMs, 1...600_000),

            providers("rates.providers", \.rates.providers, allowed: defaults.rates.kinds.map(\.descriptor.id)),
            seconds("rates.ttlSeconds", \.rates.ttlSeconds),
            seconds("rates.staleSeconds", \.rates.staleSeconds, allowZero: true),
        ]
        keys += endpoints("rates", \.rates.endpoints, defaults.rates.endpoints.descriptors)
        keys += [
            providers("rates.index.providers", \.rates.index.providers,
                      allowed: defaults.rates.index.kinds.map(\.descriptor.id), allowEmpty: true),
            integer("rates.index.minSources", \.rates.index.minSources, 1...100),
            number("rates.index.maxDeviationPercent", \.rates.index.maxDeviationPercent, 0.01...100),
            seconds("rates.index.maxAgeSeconds", \.rates.index.maxAgeSeconds, max: 86400),
        ]
        keys += endpoints("rates", \.rates.index.endpoints, defaults.rates.index.endpoints.descriptors)
        keys += [
            providers("rates.history.providers", \.history.providers, allowed: defaults.history.kinds.map(\.descriptor.id)),
            seconds("rates.history.ttlSeconds", \.history.ttlSeconds),
        ]
        keys += endpoints("rates", \.history.endpoints, defaults.history.endpoints.descriptors)
        keys += [
            providers("books.providers", \.books.providers, allowed: defaults.books.kinds.map(\.descriptor.id)),
            seconds("books.ttlSeconds", \.books.ttlSeconds),
            seconds("books.notFoundTtlSeconds", \.books.notFoundTtlSeconds, allowZero: true),
            seconds("books.searchTtlSeconds", \.books.searchTtlSeconds, allowZero: true),
            seconds("books.staleSeconds", \.books.staleSeconds, allowZero: true),
        ]
        keys += endpoints("books", \.books.endpoints, defaults.books.endpoints.descriptors)
        keys += [
            optional("books.googleBooks.apiKey", \.books.googleBooks.apiKey, secret: true,
                     expected: "a string of printable ASCII without spaces, or null", valid: isToken),
            optional("books.googleBooks.country", \.books.googleBooks.country, secret: false,
                     expected: "a two-letter upper-case country code (ISO 3166-1), or null",
                     valid: { $0.count == 2 && $0.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A } }),
            // Seeds the cover allow-list, which only holds origins `UpstreamOrigin` accepts.
            string("books.openLibrary.coversBaseUrl", \.books.openLibrary.coversBaseURL,
                   expected: "an http:// or https:// URL with a host name or dotted-quad IPv4 address and no query",
                   valid: { isBaseURL($0) && (try? UpstreamOrigin.parse($0).get()) != nil }),
            integer("books.maxCoverBytes", \.books.maxCoverBytes, 1...67_108_864),

            choice("log.level", \.log.level as WritableKeyPath<AlmanacConfiguration, LogLevel>),
            choice("log.format", \.log.format as WritableKeyPath<AlmanacConfiguration, LogFormat>),
        ]
        return keys
    }

    /// Each provider's endpoint keys: `<area>.<configName>.baseUrl`, `.maxRequestsPerSecond`, `.burst`.
    static func endpoints(_ area: String, _ kp: WritableKeyPath<AlmanacConfiguration, ProviderEndpoints>,
                          _ descriptors: [ProviderDescriptor]) -> [ConfigurationKey] {
        descriptors.flatMap { descriptor -> [ConfigurationKey] in
            let prefix = area + "." + descriptor.configName
            let endpoint = kp.appending(path: \ProviderEndpoints.[descriptor.id])
            return [url(prefix + ".baseUrl", endpoint.appending(path: \.baseURL)),
                    rate(prefix + ".maxRequestsPerSecond", endpoint.appending(path: \.budget.maxRequestsPerSecond)),
                    integer(prefix + ".burst", endpoint.appending(path: \.budget.burst), 1...100_000)]
        }
    }

    /// Object paths that hold keys (`server`, `books.googleBooks`, …).
    static func sections(of keys: [ConfigurationKey]) -> Set<String> {
        var out: Set<String> = []
        for key in keys {
            var parts = key.path.split(separator: ".").dropLast()
            while !parts.isEmpty {
                out.insert(parts.joined(separator: "."))
                parts = parts.dropLast()
            }
        }
        return out
    }
}
