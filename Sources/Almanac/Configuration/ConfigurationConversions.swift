import Cache
import HTTPClient
import HTTP1
import Rates
import Redis

/// The module-level configurations derived from the operator's one file, so each module
/// keeps its own small type and only Almanac knows how the keys map.
extension AlmanacConfiguration {
    /// The operator's `server.*` settings plus what almanac derives: its `Server` header, and a
    /// body deadline no longer than a head's (no almanac route takes a body, and a 30 s body
    /// deadline let slow-body clients, `slowhttptest -B`, hold every connection slot:
    /// bench/repro/slow_body_exhaustion.sh).
    public var httpServerConfiguration: HTTPServerConfiguration {
        var c = server.http
        c.bodyTimeoutSeconds = c.headerTimeoutSeconds
        c.serverName = AlmanacVersion.serverName
        return c
    }

    public var httpClientConfiguration: HTTPClientConfiguration { upstream.client }

    public var cacheLimits: CacheLimits {
        CacheLimits(maxEntries: cache.maxEntries, maxBytes: cache.maxBytes)
    }

    /// The shared cache's Redis connection: to `cache.redis.url`, or to the primary that
    /// `cache.redis.sentinels` name for `cache.redis.masterName`; nil with neither.
    public var redisConfiguration: RedisConfiguration? {
        let redis = cache.redis
        let tls = RedisTLSConfiguration(caFile: redis.tls.caFile, certFile: redis.tls.certFile, keyFile: redis.tls.keyFile,
                                        serverName: redis.tls.serverName, verify: redis.tls.verify)
        if !redis.sentinels.isEmpty, let masterName = redis.masterName {
            let sentinels = redis.sentinels.compactMap(RedisEndpoint.init(parsing:))
            // The host and port are the primary's, found at each connection; the URL carries the
            // rest (password, TLS).
            let url = RedisURL(host: masterName, port: RedisURL.defaultPort, password: redis.password.map { Array($0.utf8) },
                               tls: redis.tls.enabled)
            return RedisConfiguration(url: url, tls: tls, sentinel: RedisSentinelConfiguration(sentinels: sentinels, masterName: masterName),
                                      timeoutMilliseconds: redis.timeoutMs)
        }
        guard let text = redis.url, let url = try? RedisURL(parsing: text) else { return nil }
        return RedisConfiguration(url: url, tls: tls, timeoutMilliseconds: redis.timeoutMs)
    }

    /// The shared layer's settings: a fill lock lives as long as one load may take (the
    /// upstream request deadline) plus a second of margin, so a replica that died mid-load
    /// delays the others' takeover by no more than that. A replica waiting for another's load
    /// waits at most half the request deadline, then loads by itself in the other half: a dead
    /// holder never makes a request outlive its deadline. Values read back may claim no longer
    /// lifetimes than each namespace's configured TTLs (`sharedValueLimits`).
    public var sharedCacheSettings: SharedCacheLayer.Settings {
        SharedCacheLayer.Settings(keyPrefix: Array(cache.redis.keyPrefix.utf8), maxValueBytes: cache.redis.maxValueBytes,
                                  lockMilliseconds: upstream.steward.requestDeadlineMs + 1_000,
                                  waitLimitSeconds: Double(upstream.steward.requestDeadlineMs) / 2_000,
                                  valueLimits: sharedValueLimits)
    }

    /// Per shared namespace, the longest freshness and stale window its loads give: rates and
    /// books their configured TTLs (a book not found has its own, usually shorter, TTL; a volume
    /// by id the same two; a search page `books.searchTtlSeconds`), history
    /// blocks at most `rates.history.ttlSeconds` fresh and as long again stale.
    var sharedValueLimits: [String: SharedValueLimits] {
        let bookTTL = max(books.ttlSeconds, books.notFoundTtlSeconds)
        return [
            RatesService.namespaceName: SharedValueLimits(ttlSeconds: rates.ttlSeconds, staleSeconds: rates.staleSeconds),
            HistoryService.namespaceName: SharedValueLimits(ttlSeconds: history.ttlSeconds, staleSeconds: history.ttlSeconds),
            "books": SharedValueLimits(ttlSeconds: bookTTL, staleSeconds: books.staleSeconds),
            "covers": SharedValueLimits(ttlSeconds: bookTTL, staleSeconds: books.staleSeconds),
            "book-search": SharedValueLimits(ttlSeconds: books.searchTtlSeconds, staleSeconds: books.staleSeconds),
            "volumes": SharedValueLimits(ttlSeconds: bookTTL, staleSeconds: books.staleSeconds),
        ]
    }

    /// The Redis password as text, when the URL has one (masked in logs wherever it appears).
    var redisPassword: String? {
        if let password = cache.redis.password { return password }
        guard let url = cache.redis.url, let password = (try? RedisURL(parsing: url))?.password else { return nil }
        return String(decoding: password, as: UTF8.self)
    }

    /// The secrets this configuration holds, for the log `Redactor`.
    public var secrets: [String] {
        [server.adminToken, books.googleBooks.apiKey, redisPassword].compactMap { $0 }
    }
}
