import Cache

/// Cache counters and sizes per namespace, read from `CacheStore.stats()` at scrape time.
enum CacheMetrics {
    static func families(_ stats: [String: CacheStats]) -> [MetricFamily] {
        let byName = stats.sorted { $0.key < $1.key }
        func family(_ name: String, _ help: String, _ kind: MetricFamily.Kind, _ value: (CacheStats) -> Double) -> MetricFamily {
            MetricFamily(name: name, help: help, kind: kind, samples: byName.map {
                MetricFamily.Sample(labels: [("namespace", $0.key)], value: .number(value($0.value)))
            })
        }
        return [
            family("almanac_cache_hits_total", "Lookups answered fresh from the cache.", .counter) { Double($0.hits) },
            family("almanac_cache_misses_total", "Lookups that had to load from upstream.", .counter) { Double($0.misses) },
            family("almanac_cache_stale_total", "Lookups answered stale while revalidating or after an upstream error.", .counter) { Double($0.stale) },
            family("almanac_cache_evictions_total", "Entries evicted to stay within cache.maxEntries / cache.maxBytes.", .counter) { Double($0.evictions) },
            family("almanac_cache_entries", "Entries currently cached.", .gauge) { Double($0.entries) },
            family("almanac_cache_bytes", "Approximate bytes currently cached.", .gauge) { Double($0.bytes) },
        ]
    }
}
