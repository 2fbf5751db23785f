/// Block arithmetic for one provider: days are grouped in aligned blocks of `size` days
/// (block i holds days i·size … i·size+size−1, counted from 1970-01-01), and one block is one
/// upstream request. A range of N days touches at most ⌈N/size⌉+1 blocks, so a cold range
/// costs at most that many requests and any range inside fetched blocks costs none.
///
/// Pure: "yesterday" and "now" are arguments, so tests drive it with any clock.
public struct HistoryBlockPlan: Sendable, Equatable {
    /// Days per block: the most one upstream request may return (bitstamp 1000, coinbase-exchange 300).
    public let size: Int64
    /// The first day the provider holds; earlier days are never requested.
    public let earliest: Int64

    public init(size: Int64, earliest: Int64) {
        self.size = max(1, size)
        self.earliest = earliest
    }

    /// The block holding `day`.
    public func index(of day: Int64) -> Int64 {
        day >= 0 ? day / size : (day - size + 1) / size
    }

    /// The blocks covering `days`, in order.
    public func indexes(covering days: ClosedRange<Int64>) -> ClosedRange<Int64> {
        index(of: days.lowerBound)...index(of: days.upperBound)
    }

    /// Every day of block `index`.
    public func span(_ index: Int64) -> ClosedRange<Int64> {
        (index * size)...(index * size + size - 1)
    }

    /// The days to ask upstream for block `index`: its span cut to the provider's first day and
    /// to `yesterday` (today's candle is partial and never stored). Nil when nothing is left.
    public func fetchSpan(_ index: Int64, yesterday: Int64) -> ClosedRange<Int64>? {
        let span = self.span(index)
        let first = max(span.lowerBound, earliest)
        let last = min(span.upperBound, yesterday)
        return first <= last ? first...last : nil
    }

    /// The cache key of block `index` as of `yesterday`, or nil when it holds no fetchable day.
    public func key(provider: String, series: String, index: Int64, yesterday: Int64) -> HistoryBlockKey? {
        guard let fetch = fetchSpan(index, yesterday: yesterday) else { return nil }
        return HistoryBlockKey(provider: provider, series: series, index: index, through: fetch.upperBound)
    }
}

/// How long a fetched block is served. Days before yesterday never change, so a block whose
/// last day is final lives `ttlSeconds` (and may be served stale as long again while it is
/// refreshed); a block cut at yesterday is only asked for until midnight turns its key over;
/// a block that should hold yesterday but does not (the upstream had not closed the day yet)
/// is retried after `retrySeconds`, never cached as final.
public struct HistoryBlockLifetime: Sendable, Equatable {
    public var ttlSeconds: Double
    public var staleSeconds: Double

    public static func of(key: HistoryBlockKey, hasLastDay: Bool, plan: HistoryBlockPlan, yesterday: Int64,
                          nowSeconds: Int64, ttlSeconds: Double, retrySeconds: Double) -> HistoryBlockLifetime {
        if key.through >= yesterday && !hasLastDay {
            return HistoryBlockLifetime(ttlSeconds: min(ttlSeconds, retrySeconds), staleSeconds: 0)
        }
        if key.through < plan.span(key.index).upperBound {
            // Cut at yesterday: from the next midnight on, requests ask for a newer key.
            let untilSuperseded = Double(HistoryDay.startSeconds(key.through + 2) - nowSeconds)
            return HistoryBlockLifetime(ttlSeconds: min(ttlSeconds, max(60, untilSuperseded)), staleSeconds: 0)
        }
        return HistoryBlockLifetime(ttlSeconds: ttlSeconds, staleSeconds: ttlSeconds)
    }
}
