import Redis

/// The `cache.redis.*` rules that involve more than one key, or the file system: each key is
/// valid on its own, but some combinations cannot be what the operator meant (a URL and
/// sentinels, a TLS setting without TLS, a client certificate without its key) and are refused
/// at load time — `check-config` exits 2 naming the key — rather than half-applied at run time.
extension AlmanacConfiguration {
    /// Whether the connection to Redis (the primary, with Sentinel) speaks TLS.
    var redisUsesTLS: Bool {
        if !cache.redis.sentinels.isEmpty { return cache.redis.tls.enabled }
        guard let text = cache.redis.url, let url = try? RedisURL(parsing: text) else { return false }
        return url.tls
    }

    /// One line per problem, each starting with the key to change. `isReadable` says whether a
    /// file can be read (the loader's file reader, so tests need no files).
    func redisCombinationProblems(isReadable: (String) -> Bool) -> [String] {
        let redis = cache.redis
        var problems: [String] = []
        let sentinels = !redis.sentinels.isEmpty
        if sentinels && redis.url != nil {
            problems.append("cache.redis.sentinels: cannot be combined with cache.redis.url (use a URL, or sentinels with cache.redis.masterName)")
        }
        if sentinels && redis.masterName == nil {
            problems.append("cache.redis.masterName: required with cache.redis.sentinels (the name the sentinels monitor the primary under)")
        }
        if !sentinels && redis.masterName != nil {
            problems.append("cache.redis.masterName: only used with cache.redis.sentinels")
        }
        if !sentinels && redis.password != nil {
            problems.append("cache.redis.password: only used with cache.redis.sentinels (with cache.redis.url the password belongs in the URL)")
        }
        if !sentinels && redis.tls.enabled {
            problems.append("cache.redis.tls.enabled: only used with cache.redis.sentinels (with cache.redis.url, rediss:// turns TLS on)")
        }
        if !redisUsesTLS {
            let withoutTLS = "has no effect without TLS (rediss:// in cache.redis.url, or cache.redis.tls.enabled with sentinels)"
            if !redis.tls.verify { problems.append("cache.redis.tls.verify: false \(withoutTLS)") }
            for (key, value) in [("caFile", redis.tls.caFile), ("certFile", redis.tls.certFile),
                                 ("keyFile", redis.tls.keyFile), ("serverName", redis.tls.serverName)] where value != nil {
                problems.append("cache.redis.tls.\(key): \(withoutTLS)")
            }
        }
        if redis.tls.certFile != nil && redis.tls.keyFile == nil {
            problems.append("cache.redis.tls.keyFile: required with cache.redis.tls.certFile (the client certificate's key)")
        }
        if redis.tls.keyFile != nil && redis.tls.certFile == nil {
            problems.append("cache.redis.tls.certFile: required with cache.redis.tls.keyFile")
        }
        for (key, value) in [("caFile", redis.tls.caFile), ("certFile", redis.tls.certFile), ("keyFile", redis.tls.keyFile)] {
            if let path = value, !isReadable(path) {
                problems.append("cache.redis.tls.\(key): cannot read \(path)")
            }
        }
        return problems
    }
}
