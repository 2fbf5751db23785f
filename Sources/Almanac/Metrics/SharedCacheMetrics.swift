import Base
import Cache

/// The shared cache layer's (L2, Redis) state and counters, read from `SharedCacheLayer.stats()`
/// at scrape time; absent when `cache.redis.url` is not set.
enum SharedCacheMetrics {
    static func families(_ stats: SharedCacheStats) -> [MetricFamily] {
        func counter(_ name: String, _ help: String, _ value: UInt64) -> MetricFamily {
            .single(name, help: help, kind: .counter, value: Double(value))
        }
        return [
            .single("almanac_cache_l2_up", help: "1 while the shared cache (Redis) answers, 0 while almanac serves without it.",
                    kind: .gauge, value: stats.up ? 1 : 0),
            counter("almanac_cache_l2_hits_total", "Cache misses answered by a fresh value from the shared cache.", stats.hits),
            counter("almanac_cache_l2_stale_hits_total", "Cache misses answered by a stale value from the shared cache (then refreshed in the background).", stats.staleHits),
            counter("almanac_cache_l2_misses_total", "Loads that found no usable value in the shared cache.", stats.misses),
            counter("almanac_cache_l2_errors_total", "Shared-cache calls that failed or timed out (the request went on without it).", stats.errors),
            counter("almanac_cache_l2_lock_waits_total", "Loads that waited for another replica loading the same key instead of calling upstream.", stats.lockWaits),
            counter("almanac_cache_l2_takeovers_total", "Waiting loads that took over a fill lock whose holder died or failed.", stats.takeovers),
            counter("almanac_cache_l2_wait_timeouts_total", "Waiting loads that gave up on another replica's load and called upstream themselves.", stats.waitTimeouts),
            counter("almanac_cache_l2_stores_total", "Values written to the shared cache.", stats.stores),
            counter("almanac_cache_l2_oversized_total", "Values kept in memory only because they exceed cache.redis.maxValueBytes.", stats.oversized),
            counter("almanac_cache_l2_purges_total", "Purges carried out in the shared cache (and announced to every replica).", stats.purges),
            counter("almanac_cache_l2_resyncs_total", "Times this replica expired its shared entries because purge messages may have been lost (Redis reconnects).", stats.gaps),
            MetricFamily(name: "almanac_cache_l2_rejected_total",
                         help: "Values read from the shared cache and refused (not written by almanac for that key, or claiming longer lifetimes than configured), treated as absent and deleted.",
                         kind: .counter,
                         samples: stats.rejected.sorted { ($0.key.namespace + ":" + $0.key.reason.rawValue).utf8Precedes($1.key.namespace + ":" + $1.key.reason.rawValue) }
                             .map { MetricFamily.Sample(labels: [("namespace", $0.key.namespace), ("reason", $0.key.reason.rawValue)],
                                                        value: .number(Double($0.value))) }),
        ]
    }

    /// `almanac_cache_l2_primary{address="host:port"} 1` for the primary in use with Sentinel;
    /// no sample while there is none (during a failover), so a change of primary shows as a new
    /// series and a gap as none.
    static func primaryFamily(_ address: String?) -> MetricFamily {
        MetricFamily(name: "almanac_cache_l2_primary",
                     help: "The Redis primary this replica uses, found through Sentinel (value 1; no sample while none is connected).",
                     kind: .gauge, samples: address.map { [.init(labels: [("address", $0)], value: .number(1))] } ?? [])
    }
}
